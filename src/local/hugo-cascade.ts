/**
 * Hugo's `cascade`: the values a page's front matter, an ancestor
 * `_index.md`'s front matter or the site's configuration hands down to the
 * pages below it (and to the page itself), as Hugo applies them: a key the
 * page defines wins, then its own cascade, then the nearest ancestor's, up
 * to the content folder, then the site's; each top-level key is taken whole
 * from the nearest that defines it. A cascade is a mapping or a list of
 * them; its `params` and its other keys are parameters; one with a
 * `target` (or `_target`) applies only to the pages whose path, kind,
 * language and environment (`production`, what a build publishes) match its
 * globs. Front matter is read as data (YAML, or TOML's plain tables).
 */
import path from 'node:path'
import {readTomlKeys, readYaml} from '../trust/index.js'
import {matchesGlob} from './hugo-glob.js'
import {nestedKeys} from './toml-tables.js'

/** One cascade block: the parameters it hands down, and the pages it targets. */
export interface CascadeEntry {
  values: Record<string, unknown>
  target?: Record<string, unknown>
}

/** A page as a cascade target sees it: its Hugo path (`/blog/post`), kind and language. */
export interface CascadePage {
  path: string
  kind: 'home' | 'section' | 'page'
  lang: string
}

/** What the cascade needs to know of the site. */
export interface CascadeSite {
  /** The folder of the site's configuration, when one was found: the content folder is below it. */
  siteDir?: string
  /** The languages the configuration names (a content folder's first segment may be one). */
  languages: readonly string[]
  /** The site configuration's own `cascade`. */
  cascade: readonly CascadeEntry[]
}

/** The cascade blocks of front matter or configuration `data` (its `cascade` key, a mapping or a list). */
export function cascadeEntries(data: Record<string, unknown> | undefined): CascadeEntry[] {
  const cascade = data?.cascade
  const blocks = Array.isArray(cascade) ? cascade : [cascade]
  const entries: CascadeEntry[] = []
  for (const block of blocks) {
    if (!isTable(block)) continue
    const {params, target, _target: oldTarget, ...rest} = block
    const values = {...rest, ...(isTable(params) ? params : {})}
    const chosen = isTable(target) ? target : isTable(oldTarget) ? oldTarget : undefined
    entries.push(chosen ? {values, target: chosen} : {values})
  }
  return entries
}

/** The data of a file's front matter (YAML between `---`, or TOML's plain tables between `+++`); undefined when none. */
export function frontMatterData(text: string): Record<string, unknown> | undefined {
  const fence = /^(---|\+\+\+)[ \t]*\r?\n/.exec(text)
  if (!fence) return undefined
  const close = new RegExp(`\\r?\\n${fence[1] === '---' ? '---' : '\\+\\+\\+'}[ \\t]*(?:\\r?\\n|$)`).exec(
    text.slice(fence[0].length - 1)
  )
  if (!close) return undefined
  const inner = text.slice(fence[0].length, fence[0].length - 1 + close.index)
  if (fence[1] === '+++') return nestedKeys(readTomlKeys(inner))
  const read = readYaml(inner)
  return read.ok && isTable(read.data) ? read.data : undefined
}

/**
 * The page at `file` (absolute) as a target sees it, with the folders whose
 * `_index.md` may hand it values, nearest first: up to the content folder
 * (`content/` below the site's configuration, past a language folder), else
 * up to `root`, the synced folder.
 */
export function pageOf(file: string, root: string, site: CascadeSite): {page: CascadePage; folders: string[]} {
  let top = root
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (path.basename(dir) === 'content' && (site.siteDir === undefined || path.dirname(dir) === site.siteDir)) {
      top = dir
      break
    }
    if (dir === root || path.dirname(dir) === dir) break
  }
  let lang = site.languages[0] ?? 'en'
  const first = path.relative(top, file).split(path.sep)[0]!
  if (site.languages.some((name) => name.toLowerCase() === first.toLowerCase()) && first !== path.relative(top, file)) {
    top = path.join(top, first)
    lang = first
  }
  const folders: string[] = []
  for (let dir = path.dirname(file); dir.startsWith(top); dir = path.dirname(dir)) {
    folders.push(dir)
    if (dir === top) break
  }
  const relative = path.relative(top, file).split(path.sep).join('/')
  const stem = relative.replace(/\.[^./]+$/, '')
  const leaf = /(?:^|\/)_?index$/.test(stem)
  const pagePath = '/' + (leaf ? stem.replace(/\/?_?index$/, '') : stem).toLowerCase()
  const section = /(?:^|\/)_index$/.test(stem)
  const kind = section ? (pagePath === '/' ? 'home' : 'section') : 'page'
  return {page: {path: pagePath, kind, lang}, folders}
}

/** Whether `entry` applies to `page` (it has no target, or each of its target's globs matches). */
export function appliesTo(entry: CascadeEntry, page: CascadePage): boolean {
  const target = entry.target
  if (!target) return true
  const checks: Array<[unknown, string]> = [
    [target.path, page.path],
    [target.kind, page.kind],
    [target.lang, page.lang],
    [target.environment, 'production']
  ]
  return checks.every(([glob, value]) => typeof glob !== 'string' || matchesGlob(glob, value))
}

/**
 * The values handed down to `page`: `own` (its own cascade) first, then each
 * of `inherited` (nearest first), then the site's; per top-level key the
 * first that defines it.
 */
export function cascadedValues(
  page: CascadePage,
  own: readonly CascadeEntry[],
  inherited: ReadonlyArray<readonly CascadeEntry[]>,
  site: CascadeSite
): Record<string, unknown> {
  const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const entries of [own, ...inherited, site.cascade])
    for (const entry of entries) {
      if (!appliesTo(entry, page)) continue
      for (const [key, value] of Object.entries(entry.values)) if (!Object.hasOwn(values, key)) values[key] = value
    }
  return values
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
}

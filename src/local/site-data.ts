/**
 * The values a docs site's templates print, filled in before a body is
 * converted (so the body text, and with it the body's cache key, holds
 * them): Hugo's `{{% param "name" %}}` / `{{< param name >}}` from the
 * page's front matter (a key, or one under `params`), else the site's
 * `params` in its configuration (`hugo.*`, `config.*`,
 * `config/_default/*`); Jekyll's `{{ page.x }}` from the front matter and
 * `{{ site.x }}` from `_config.yml`; VitePress's `{{ $frontmatter.x }}`
 * from the front matter. Configuration files are read as data
 * through the trust rules (YAML, JSON, or the plain `key = value` tables of
 * TOML, `../trust/toml-keys.ts`), from the synced folder up to the repository root, nearest first.
 * Fenced code and inline code are left as written; a value not found is
 * left to the conversion, which leaves the tag out with a warning.
 */
import path from 'node:path'
import {FenceTracker} from '../../plugins/fence-tracker.js'
import {codeSpans, inSpan} from '../dialect/gfm-to-kb/site-syntax/hugo/code-spans.js'
import {findShortcodes} from '../dialect/gfm-to-kb/site-syntax/hugo/shortcodes.js'
import {ReadRefusedError, utf8Text} from '../trust/read.js'
import type {PublishSource} from '../trust/publishable.js'
import {readTomlKeys, readYaml} from '../trust/index.js'
import {nestedKeys} from './toml-tables.js'
import {cascadeEntries, type CascadeSite} from './hugo-cascade.js'

/** What the site's configuration says: Hugo's `params` and what its `cascade` needs, and Jekyll's whole `_config.yml`. */
export interface SiteValues extends CascadeSite {
  params: Record<string, unknown>
  jekyll: Record<string, unknown>
}

const hugoNames = ['hugo', 'config'].flatMap((name) => ['toml', 'yaml', 'yml', 'json'].map((ext) => `${name}.${ext}`))
const hugoDefaults = ['hugo', 'config', 'params'].flatMap((name) =>
  ['toml', 'yaml', 'yml', 'json'].map((ext) => `config/_default/${name}.${ext}`)
)
const hugoLanguages = ['toml', 'yaml', 'yml', 'json'].map((ext) => `config/_default/languages.${ext}`)
const maxConfigBytes = 1048576

/** Adds what a Hugo configuration file's `data` says of languages and cascades to `values` (a nearer file's first). */
function readHugoSite(values: SiteValues, data: Record<string, unknown>): void {
  const languages = data.languages
  if (languages && typeof languages === 'object' && !Array.isArray(languages))
    values.languages = [...values.languages, ...Object.keys(languages)]
  values.cascade = [...values.cascade, ...cascadeEntries(data)]
}

/** Reads the site's configuration, from `root` up to `top` (the repository root, or `root`), nearest first. */
export async function loadSiteValues(source: PublishSource, root: string, top: string): Promise<SiteValues> {
  const values: SiteValues = {params: {}, jekyll: {}, languages: [], cascade: []}
  let foundHugo = false
  let foundJekyll = false
  for (let dir = root; ; dir = path.dirname(dir)) {
    if (!foundHugo) {
      for (const name of [...hugoNames, ...hugoDefaults, ...hugoLanguages]) {
        const data = await readConfig(source, path.join(dir, name))
        if (!data) continue
        const params = name.includes('/params.') ? data : data.params
        if (params && typeof params === 'object')
          values.params = {...(params as Record<string, unknown>), ...values.params}
        if (!name.includes('/params.')) readHugoSite(values, name.includes('/languages.') ? {languages: data} : data)
        values.siteDir ??= dir
        foundHugo = true
      }
    }
    if (!foundJekyll) {
      const data = await readConfig(source, path.join(dir, '_config.yml'))
      if (data) [values.jekyll, foundJekyll] = [data, true]
    }
    if (dir === top || path.dirname(dir) === dir || !dir.startsWith(top)) break
  }
  return values
}

/** A configuration file as data, or undefined when it is absent, refused, or not a mapping. */
async function readConfig(source: PublishSource, file: string): Promise<Record<string, unknown> | undefined> {
  let text: string
  try {
    text = utf8Text(await source.read(file, maxConfigBytes))
  } catch (error) {
    if (error instanceof ReadRefusedError) return undefined
    throw error
  }
  let data: unknown
  if (file.endsWith('.toml')) data = nestedKeys(readTomlKeys(text))
  else if (file.endsWith('.json')) {
    try {
      data = JSON.parse(text)
    } catch {
      return undefined
    }
  } else {
    const read = readYaml(text)
    data = read.ok ? read.data : undefined
  }
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined
}

// Hugo's `param`, and Docsy's `_param` whose further arguments fill the value's `{1}`, `{2}`... (`{0}` the name).
const hugoParam =
  /\{\{([<%])-?[ \t]*(_?param)[ \t]+(?:name=)?(?:"([^"\n]*)"|`([^`\n]*)`|([^\s"`%>}]+))((?:[ \t][^%>}\n]*)?)-?[%>]\}\}/gi
const wholeParam = new RegExp(`^(?:${hugoParam.source})`, 'i')
const liquidValue = /\{\{-?[ \t]*(site|page)\.([\w.-]+)[ \t]*-?\}\}/g
// VitePress's Vue interpolation of the page's front matter.
const frontmatterValue = /\{\{[ \t]*\$frontmatter\.([\w.-]+)[ \t]*\}\}/g

/** Whether `body` may print a value this module fills in: the cheap test before the pass. */
export function mayPrintValues(body: string): boolean {
  return body.includes('{{') && (body.includes('param') || /\{\{-?[ \t]*(?:site\.|page\.|\$frontmatter\.)/.test(body))
}

/** The values of a page: its front matter's data, and what the cascades above it hand down (`hugo-cascade.ts`). */
export interface PageValues {
  data: Record<string, unknown>
  cascaded: Record<string, unknown>
}

/** A body with its values filled in; `lineOf` maps its lines to the author's when a tag over several lines was joined. */
export interface FilledBody {
  body: string
  lineOf?: number[]
}

/** The data of front matter `yaml` (empty when there is none, or it is not a mapping). */
export function frontMatterValues(yaml: string): Record<string, unknown> {
  const read = yaml.trim() === '' ? undefined : readYaml(yaml)
  const data = read?.ok ? read.data : undefined
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {}
}

// A parameter tag opened on a line and not closed on it: Hugo reads its arguments on the lines after.
const openParam = /\{\{[<%]-?[ \t]*_?param\b(?:(?![%>]\}\}).)*$/i
const containerPrefix = /^(?:[ \t]*>)*[ \t]*/

/** `body` with the values it prints filled in (see the module comment). */
export function fillSiteValues(body: string, page: PageValues, site: SiteValues): FilledBody {
  if (!mayPrintValues(body)) return {body}
  const fences = new FenceTracker()
  const lines = body.split('\n')
  const out: string[] = []
  const lineOf: number[] = []
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    lineOf.push(index + 1)
    if (fences.isCode(line.replace(containerPrefix, '')) || !line.includes('{{')) {
      out.push(line)
      continue
    }
    const first = fillLine(line, page, site)
    const joined = joinedTag(lines, index, first, page, site)
    out.push(joined?.text ?? first)
    index = joined?.end ?? index
  }
  return out.length === lines.length ? {body: out.join('\n')} : {body: out.join('\n'), lineOf}
}

/**
 * `first` (the line at `index`, filled) with the tag it opens and leaves
 * open filled from the lines after it, joined by a space (Hugo reads them
 * as one); undefined when no tag is left open, none closes it within a few
 * lines, or its value is not found (the conversion then reports it).
 */
function joinedTag(
  lines: readonly string[],
  index: number,
  first: string,
  page: PageValues,
  site: SiteValues
): {text: string; end: number} | undefined {
  const open = openParam.exec(first)
  if (!open || inSpan(codeSpans(first), open.index)) return undefined
  let tail = first.slice(open.index)
  for (let at = index + 1; at < lines.length && at <= index + 4; at++) {
    const rest = lines[at]!.replace(containerPrefix, '')
    if (rest.trim() === '' || /^(?:`{3,}|~{3,})/.test(rest)) return undefined
    tail += ' ' + rest
    if (!/[%>]\}\}/.test(rest)) continue
    const tag = wholeParam.exec(tail)
    const filled = tag && fillLine(tail, page, site)
    return tag && !filled!.startsWith(tag[0]) ? {text: first.slice(0, open.index) + filled, end: at} : undefined
  }
  return undefined
}

/** `line` with the values it prints filled in; tags in inline code, and values not found, are left as written. */
function fillLine(line: string, page: PageValues, site: SiteValues): string {
  const spans = codeSpans(line)
  const fill = (match: string, at: number, value: unknown): string =>
    inSpan(spans, at) ? match : (printable(value) ?? match)
  return line
    .replace(hugoParam, (match, _delimiter, name: string, quoted, raw, bare, rest: string, at: number) => {
      const key = String(quoted ?? raw ?? bare)
      const {data, cascaded} = page
      const value = lookup(data, key) ?? lookup(data.params, key) ?? lookup(cascaded, key) ?? lookup(site.params, key)
      const filled = name.toLowerCase() === '_param' ? withPlaceholders(printable(value), match) : value
      return rest.replace(/-\s*$/, '').trim() && name.toLowerCase() === 'param' ? match : fill(match, at, filled)
    })
    .replace(liquidValue, (match, scope: string, key: string, at: number) =>
      fill(match, at, lookup(scope === 'page' ? page.data : site.jekyll, key))
    )
    .replace(frontmatterValue, (match, key: string, at: number) => fill(match, at, lookup(page.data, key)))
}

/** Docsy's `_param` value with `{0}` (the name), `{1}`... replaced by the tag's positional arguments, in order. */
function withPlaceholders(value: string | undefined, tag: string): string | undefined {
  const args = findShortcodes(tag)[0]?.positional
  if (value === undefined || !args) return value
  // Each in turn, as the shortcode's template replaces them.
  return args.reduce((result, arg, index) => result.split(`{${index}}`).join(arg), value)
}

/** The value at the dotted `key` of `data` (keys compared without case, as Hugo does). */
function lookup(data: unknown, key: string): unknown {
  let value: unknown = data
  for (const part of key.split('.')) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined
    const record = value as Record<string, unknown>
    const name = Object.hasOwn(record, part)
      ? part
      : Object.keys(record).find((candidate) => candidate.toLowerCase() === part.toLowerCase())
    if (name === undefined) return undefined
    value = record[name]
  }
  return value
}

/** A value as the template prints it, on one line; undefined for one it cannot print (a list, a table). */
function printable(value: unknown): string | undefined {
  if (typeof value === 'string') return value.replace(/\s*\n\s*/g, ' ')
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (value instanceof Date) return value.toISOString().slice(0, 10)
  return undefined
}

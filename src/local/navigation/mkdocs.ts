/**
 * MkDocs' `mkdocs.yml`: `docs_dir` (the documents' folder, `docs` unless it
 * says otherwise) and `nav`, a list whose items are a page (`file.md`), a
 * titled page (`Title: file.md`), a section (`Title: [items]`) or a link
 * to a URL (skipped: the knowledge base holds documents). Pure: text in,
 * outline out. MkDocs' own tags (`!ENV`, `!!python/name:`) are read as
 * plain values: they never concern the navigation.
 */
import {isMap, isScalar, isSeq, type Node as YamlNode} from 'yaml'
import {maxOutlineDepth, readYaml} from '../../trust/index.js'
import {tooDeep} from './depth.js'
import type {Diagnostic} from '../diagnostic.js'
import type {NavEntry, ParsedOutline} from './types.js'

/** The name of MkDocs' configuration file. */
export const mkdocsFileName = 'mkdocs.yml'

/** What `mkdocs.yml` says about the documents. */
export interface MkdocsConfig extends ParsedOutline {
  /** `docs_dir`, relative to the file's folder. */
  docsDir: string
  /** Whether the file has a `nav` (without one, MkDocs orders by folders, as kbsync does). */
  hasNav: boolean
}

/** Parses the `mkdocs.yml` at `file` (for messages). */
export function parseMkdocs(text: string, file: string): MkdocsConfig {
  const read = readYaml(text)
  const problems: Diagnostic[] = []
  const lineOf = (node: unknown): number => (read.ok ? read.lineOf(node) : 1)
  const fail = (node: unknown, message: string, hint: string) =>
    problems.push({severity: 'error', file, line: lineOf(node), message, hint, rule: 'navigation-mkdocs'})
  const config: MkdocsConfig = {docsDir: 'docs', hasNav: false, entries: [], problems}
  if (!read.ok) {
    problems.push({
      severity: 'error',
      file,
      line: read.line,
      message: `Invalid YAML in ${mkdocsFileName}: ${read.message}`,
      hint: 'Fix the YAML (MkDocs cannot read it either), or list mkdocs.yml in .kbsyncignore of a folder that should not use it',
      rule: 'navigation-mkdocs'
    })
    return config
  }
  const contents = read.document.contents
  if (!isMap(contents)) return config
  const docsDir = contents.get('docs_dir', true)
  if (docsDir !== undefined) {
    const value: unknown = isScalar(docsDir) ? docsDir.value : undefined
    if (typeof value === 'string' && value.trim() !== '') config.docsDir = value.trim().replace(/\/+$/, '')
    else
      fail(
        docsDir,
        '`docs_dir` must be a folder name',
        'Write `docs_dir: docs` (the folder of the documents, relative to mkdocs.yml)'
      )
  }
  const nav = contents.get('nav', true) as YamlNode | undefined
  if (nav === undefined || (isScalar(nav) && nav.value === null)) return config
  config.hasNav = true
  if (!isSeq(nav)) {
    fail(
      nav,
      '`nav` must be a list of pages and sections',
      'Write each item as `- Title: file.md` or `- Section:` followed by its own list'
    )
    return config
  }
  // One error, at the first section past the limit.
  const tooDeepAt = (node: unknown) => {
    if (!problems.some((problem) => problem.rule === 'navigation-depth'))
      problems.push(tooDeep(file, lineOf(node), mkdocsFileName))
  }
  config.entries = itemsOf(nav.items as YamlNode[], {lineOf, fail, tooDeepAt}, 1)
  return config
}

/** How `itemsOf` places and reports what it reads. */
interface NavReading {
  lineOf: (node: unknown) => number
  fail: (node: unknown, message: string, hint: string) => void
  /** Reports a section nested past `maxOutlineDepth` (its items are left out). */
  tooDeepAt: (node: unknown) => void
}

/** The entries of a `nav` list (or a section's list, at `depth`). */
function itemsOf(items: YamlNode[], reading: NavReading, depth: number): NavEntry[] {
  const {lineOf, fail} = reading
  const entries: NavEntry[] = []
  for (const item of items) {
    if (isScalar(item) && typeof item.value === 'string') {
      const entry = pageOf(undefined, item.value, lineOf(item))
      if (entry) entries.push(entry)
      continue
    }
    if (isMap(item) && item.items.length === 1) {
      const pair = item.items[0]!
      const key = isScalar(pair.key) ? pair.key.value : undefined
      const value = pair.value as YamlNode | null
      const title = typeof key === 'string' || typeof key === 'number' ? String(key).trim() : undefined
      if (title !== undefined && isScalar(value) && typeof value.value === 'string') {
        const entry = pageOf(title, value.value, lineOf(item))
        if (entry) entries.push(entry)
        continue
      }
      if (title !== undefined && isSeq(value)) {
        const deeper = depth < maxOutlineDepth
        if (!deeper) reading.tooDeepAt(item)
        const children = deeper ? itemsOf(value.items as YamlNode[], reading, depth + 1) : []
        entries.push({title, line: lineOf(item), children})
        continue
      }
    }
    fail(
      item,
      'A `nav` item must be a page (`file.md`), a titled page (`Title: file.md`) or a section (`Title:` over a list)',
      'Write it as `- Title: path/to/file.md`, with the path relative to docs_dir'
    )
  }
  return entries
}

/** A page entry, or undefined for a link to a URL (the knowledge base holds documents only). */
function pageOf(title: string | undefined, target: string, line: number): NavEntry | undefined {
  const file = target.trim().replace(/^\.\//, '')
  if (/^[a-z][a-z0-9+.-]*:/i.test(file) || file.startsWith('//') || file === '') return undefined
  return {...(title !== undefined ? {title} : {}), file: file.replace(/^\//, ''), line, children: []}
}

/**
 * MkDocs' `mkdocs.yml`: `docs_dir` (the documents' folder, `docs` unless it
 * says otherwise) and `nav`, a list whose items are a page (`file.md`), a
 * titled page (`Title: file.md`), a section (`Title: [items]`) or a link
 * to a URL (skipped: the knowledge base holds documents). Pure: text in,
 * outline out. MkDocs' own tags (`!ENV`, `!!python/name:`) are read as
 * plain values: they never concern the navigation.
 */
import {isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode} from 'yaml'
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
  const lineCounter = new LineCounter()
  const document = parseDocument(text, {lineCounter, prettyErrors: false})
  const problems: Diagnostic[] = []
  const lineOf = (node: unknown): number => {
    const range = (node as {range?: [number, number, number]} | null)?.range
    return range ? lineCounter.linePos(range[0]).line : 1
  }
  const fail = (node: unknown, message: string, hint: string) =>
    problems.push({severity: 'error', file, line: lineOf(node), message, hint, rule: 'navigation-mkdocs'})
  const config: MkdocsConfig = {docsDir: 'docs', hasNav: false, entries: [], problems}
  if (document.errors.length > 0) {
    const error = document.errors[0]!
    problems.push({
      severity: 'error',
      file,
      line: lineCounter.linePos(error.pos[0]).line,
      message: `Invalid YAML in ${mkdocsFileName}: ${error.message.split('\n')[0]}`,
      hint: 'Fix the YAML (MkDocs cannot read it either), or list mkdocs.yml in .kbsyncignore of a folder that should not use it',
      rule: 'navigation-mkdocs'
    })
    return config
  }
  const contents = document.contents
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
  config.entries = itemsOf(nav.items as YamlNode[], lineOf, fail)
  return config
}

type Fail = (node: unknown, message: string, hint: string) => void

/** The entries of a `nav` list (or a section's list). */
function itemsOf(items: YamlNode[], lineOf: (node: unknown) => number, fail: Fail): NavEntry[] {
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
        entries.push({title, line: lineOf(item), children: itemsOf(value.items as YamlNode[], lineOf, fail)})
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

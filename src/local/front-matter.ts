/**
 * Front matter of a Markdown file: a YAML block between `---` lines at the
 * top, after blank lines at most (`front-matter-fence.ts`). Only `title`,
 * `kb_id`, `permissions` and the navigation keys of docs sites (Docusaurus
 * `id`, `sidebar_label`, `sidebar_position`) mean something to kbsync;
 * other keys are left alone.
 */
import {readYaml} from '../trust/index.js'
import type {Diagnostic} from './diagnostic.js'
import {frontMatterFence} from './front-matter-fence.js'
import {pageAddressesOf} from './link-targets.js'
import {readPermissions} from './permissions.js'
import {publishRulesOf, type Unpublished} from './publish-rules.js'
import {TextLines} from './text-lines.js'
import type {LocalPermissions} from './types.js'

/** What the front matter of one file says. */
export interface FrontMatter {
  /** Whether the file starts with a front matter block. */
  present: boolean
  title?: string
  kbId?: string
  permissions?: LocalPermissions
  /** Docusaurus `id`: the document's id, which `_category_` links and doc-id links name. */
  id?: string
  /** Docusaurus `sidebar_label`: the document's title in the navigation. */
  sidebarLabel?: string
  /** Docusaurus `sidebar_position`: the document's place among its siblings (lower first). */
  sidebarPosition?: number
  /** `slug` (Docusaurus, Hugo): the page's address, from the site root or its folder; links may name it. */
  slug?: string
  /** `permalink` (Jekyll) or a path in `url` (Hugo): the page's address from the site root; links may name it. */
  permalink?: string
  /** Why the site never publishes the document (`draft`, `headless`, `_build`), see `publish-rules.ts`. */
  unpublished?: Unpublished
  /** Number of lines the block takes (0 when absent), so the body's lines keep their numbers. */
  lineCount: number
  /** Raw YAML text of the block. */
  yaml: string
}

/** What a block's facts are without its text (`FrontMatter.yaml`). */
export type FrontMatterFacts = Omit<FrontMatter, 'yaml'>

/**
 * Where `readFrontMatter` finds the facts of a block it read before, by the
 * block's text, and records those of a block it parsed without a problem
 * (`front-matter-cache.ts`).
 */
export interface FrontMatterMemo {
  get(yaml: string): FrontMatterFacts | undefined
  set(yaml: string, facts: FrontMatterFacts): void
}

const closing = /^(?:---|\.\.\.)[ \t]*$/

/**
 * Splits and validates the front matter of `text` (the file at `file`),
 * pushing problems (with line numbers) onto `diagnostics`.
 */
export function readFrontMatter(
  text: string,
  file: string,
  diagnostics: Diagnostic[],
  memo?: FrontMatterMemo,
  lines: TextLines = new TextLines(text)
): FrontMatter {
  const none: FrontMatter = {present: false, lineCount: 0, yaml: ''}
  const fence = frontMatterFence(text)
  if (fence === -1) return none
  const end = closingLineOf(lines, fence)
  // After blank lines, only a closed block of keys is front matter (else the `---` is a thematic break); such a
  // block is rare, and not memoised: the memo's facts hold the block's line count.
  if (fence > 0) {
    const yaml = end === -1 ? '' : yamlOf(text, lines, fence, end)
    return end === -1 || !isMapping(yaml) ? none : parseBlock(yaml, end + 1, file, diagnostics, fence)
  }
  if (end === -1) {
    diagnostics.push({
      severity: 'error',
      file,
      line: 1,
      message: 'Front matter is not closed with a `---` line',
      rule: 'front-matter-unclosed'
    })
    return none
  }
  const yaml = yamlOf(text, lines, 0, end)
  // The facts are a function of the block's text alone: a block read before (and found sound) is not parsed again.
  const known = memo?.get(yaml)
  if (known) return {...known, yaml}
  const before = diagnostics.length
  const result = parseBlock(yaml, end + 1, file, diagnostics, 0)
  if (memo && diagnostics.length === before) {
    const {yaml: _text, ...facts} = result
    memo.set(yaml, facts)
  }
  return result
}

/** The YAML between the fences at lines `fence` and `end`, as it lies in the text, without the line feed that ends it. */
function yamlOf(text: string, lines: TextLines, fence: number, end: number): string {
  return text.slice(lines.start(fence + 1), Math.max(lines.start(fence + 1), lines.start(end) - 1))
}

/** Whether `yaml` is a mapping of keys, without a problem. */
function isMapping(yaml: string): boolean {
  const read = readYaml(yaml)
  return read.ok && typeof read.data === 'object' && read.data !== null && !Array.isArray(read.data)
}

/**
 * The facts of the front matter block `yaml` (of `lineCount` lines with its
 * fences and the blank lines above) of `file`, its opening fence at the
 * 0-based line `fence`; its problems added to `diagnostics`.
 */
function parseBlock(
  yaml: string,
  lineCount: number,
  file: string,
  diagnostics: Diagnostic[],
  fence: number
): FrontMatter {
  const result: FrontMatter = {present: true, lineCount, yaml}
  const read = readYaml(yaml)
  // The block's first line is the file's line `fence + 2` (1-based).
  if (!read.ok) {
    diagnostics.push({
      severity: 'error',
      file,
      line: read.line + fence + 1,
      ...(read.column === undefined ? {} : {column: read.column}),
      message: `Invalid YAML in front matter: ${read.message}`,
      rule: 'front-matter-yaml'
    })
    return result
  }
  const {data, document} = read
  const lineOf = (node: unknown): number | undefined =>
    (node as {range?: unknown} | undefined)?.range ? read.lineOf(node) + fence + 1 : undefined
  if (data === null || data === undefined) return result
  if (typeof data !== 'object' || Array.isArray(data)) {
    diagnostics.push({
      severity: 'error',
      file,
      line: fence + 2,
      message: 'Front matter must be a mapping of keys to values',
      rule: 'front-matter-type'
    })
    return result
  }
  const record = data as Record<string, unknown>
  const nodeLine = (path: readonly string[]): number | undefined => lineOf(document.getIn(path, true))
  const reading: KeyReading = {record, result, file, lineOf: (key) => nodeLine([key]) ?? fence + 2, diagnostics}
  readPlainKeys(reading)
  if ('permissions' in record) readPermissionsKey(reading, nodeLine, fence + 2)
  return result
}

/** The keys whose reading needs no place in the YAML but for their messages: all but `permissions`. */
function readPlainKeys(reading: KeyReading): void {
  readTitle(reading)
  readKbId(reading)
  readSidebarKeys(reading)
  Object.assign(reading.result, pageAddressesOf(reading.record), publishRulesOf(reading.record))
}

/**
 * The facts `readFrontMatter` records for a block of `lineCount` lines
 * (its fences included) whose YAML reads as `record`, found without parsing
 * it: for a block kbsync itself just wrote from `record`. Undefined when
 * the block would have a problem, or names `permissions` (whose reading
 * needs the YAML's places).
 */
export function factsOfRecord(record: Record<string, unknown>, lineCount: number): FrontMatterFacts | undefined {
  if ('permissions' in record) return undefined
  const result: FrontMatter = {present: true, lineCount, yaml: ''}
  const diagnostics: Diagnostic[] = []
  readPlainKeys({record, result, file: '', lineOf: () => 2, diagnostics})
  if (diagnostics.length > 0) return undefined
  const {yaml: _text, ...facts} = result
  return facts
}

/** The index of the line that closes the block opened by the line `fence`, or -1 when no line does. */
function closingLineOf(lines: TextLines, fence: number): number {
  for (let index = fence + 1; lines.has(index); index++) {
    if (closing.test(lines.line(index).replace(/\r$/, ''))) return index
  }
  return -1
}

/** What the readers of the top-level keys share: the block as data, what they fill in, and where problems go. */
interface KeyReading {
  record: Record<string, unknown>
  result: FrontMatter
  file: string
  /** The file line of a top-level key. */
  lineOf: (key: string) => number
  diagnostics: Diagnostic[]
}

/** A key whose value has the wrong type: an error at its line. */
function typeError(reading: KeyReading, key: string, message: string): void {
  reading.diagnostics.push({
    severity: 'error',
    file: reading.file,
    line: reading.lineOf(key),
    message,
    rule: 'front-matter-type'
  })
}

/** `title`: a non-empty string (trimmed) or a number; anything else is an error. */
function readTitle(reading: KeyReading): void {
  const {record, result} = reading
  if (!('title' in record)) return
  if (typeof record.title === 'string' && record.title.trim() !== '') result.title = record.title.trim()
  else if (typeof record.title === 'number') result.title = String(record.title)
  else typeError(reading, 'title', '`title` must be a non-empty string')
}

/** `kb_id`: an item id of the platform (letters, digits, `_`, `-`), or an integer YAML read as a number. */
function readKbId(reading: KeyReading): void {
  const {record, result} = reading
  if (!('kb_id' in record)) return
  const id = record.kb_id
  if (
    (typeof id === 'string' && /^[A-Za-z0-9_-]+$/.test(id.trim())) ||
    (typeof id === 'number' && Number.isInteger(id))
  ) {
    result.kbId = String(id).trim()
  } else {
    typeError(reading, 'kb_id', '`kb_id` must be an item id such as `OJHEAFQ26YT`')
  }
}

/**
 * `permissions`, read by `readPermissions` (no `inherit` in a file's own
 * front matter). Its problems point at the line of the inner key they concern,
 * or at the `permissions` line when that key has no place of its own.
 */
function readPermissionsKey(
  {record, result, file, diagnostics}: KeyReading,
  nodeLine: (path: readonly string[]) => number | undefined,
  firstLine: number
): void {
  const line = nodeLine(['permissions']) ?? firstLine
  const lineIn = (key: string): number => nodeLine(['permissions', key]) ?? line
  const permissions = readPermissions(
    record.permissions,
    {file, line, allowInherit: false, lineOf: lineIn},
    diagnostics
  )
  if (permissions) result.permissions = permissions
}

/**
 * The navigation keys of Docusaurus front matter. They only steer titles and
 * order, so a value of the wrong type is a warning (the key is ignored),
 * never a reason to refuse the tree.
 */
function readSidebarKeys(reading: KeyReading): void {
  const {record, result} = reading
  const warn = (key: string, what: string) =>
    reading.diagnostics.push({
      severity: 'warning',
      file: reading.file,
      line: reading.lineOf(key),
      message: `\`${key}\` must be ${what}; it is ignored`,
      hint: `Write \`${key}\` as ${what}, or remove it`,
      rule: 'front-matter-type'
    })
  if ('id' in record) {
    if ((typeof record.id === 'string' && record.id.trim() !== '') || typeof record.id === 'number')
      result.id = String(record.id).trim()
    else warn('id', 'a non-empty string')
  }
  if ('sidebar_label' in record) {
    if (
      (typeof record.sidebar_label === 'string' && record.sidebar_label.trim() !== '') ||
      typeof record.sidebar_label === 'number'
    )
      result.sidebarLabel = String(record.sidebar_label).trim()
    else warn('sidebar_label', 'a non-empty string')
  }
  if ('sidebar_position' in record) {
    const position =
      typeof record.sidebar_position === 'string' ? Number(record.sidebar_position) : record.sidebar_position
    if (typeof position === 'number' && Number.isFinite(position)) result.sidebarPosition = position
    else warn('sidebar_position', 'a number')
  }
}

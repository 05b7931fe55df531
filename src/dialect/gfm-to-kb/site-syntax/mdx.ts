/**
 * MDX source a reader never sees: top-level `import` / `export` statements
 * (ESM, also over several lines) and `{/* comments *\/}`. Their lines are
 * blanked in place (every other line keeps its number). Docusaurus reads
 * `.md` files as MDX too, so there an `import` with a module string is
 * dropped as well; an `export` only in `.mdx` (in `.md` it may start prose).
 * Either must look like a statement: a line of prose that starts with the
 * word stays.
 * Code blocks and inline code are left alone.
 */
import {FenceTracker, isBlank, splitPrefix, type SiteSource} from './lines.js'

const statementStart = /^(?:import|export)(?=[\s{*])/
// The module string that ends an import, and what must stand before it (patterns anchored at the end: linear).
const moduleAtEnd = /(['"])[^'"\n]*\1$/
const fromAtEnd = /(?:^import|[\s}*])from$/
// An export declares something: prose starting with the word "export" does not look like this.
const exportStatement = /^export\s+(?:default\b|(?:const|let|var|function\*?|class|async|type|interface|enum)\s|\{|\*)/
const commentLine = /^<!--.*-->[ \t\r]*$/

/** Blanks the ESM statements of `site` (`mdx`: every one, else complete imports only). */
export function dropEsm(site: SiteSource, mdx: boolean): void {
  const {lines} = site
  const fences = new FenceTracker()
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    const [prefix, rest] = splitPrefix(line)
    // ESM sits at the top level only, and cannot continue a paragraph (a comment line before it is no paragraph).
    if (prefix !== '' || (index > 0 && !isBlank(lines[index - 1]!) && !commentLine.test(lines[index - 1]!))) {
      fences.isCode(rest)
      continue
    }
    if (fences.isCode(rest) || !statementStart.test(line)) continue
    const end = statementEnd(lines, index)
    const statement = lines.slice(index, end + 1).join('\n')
    if (!isImport(statement) && !(mdx && exportStatement.test(statement))) continue
    for (let at = index; at <= end; at++) lines[at] = ''
    index = end
  }
}

/** Whether `statement` is a whole import: `import x from 'y'`, `import {a, b} from "y"`, `import 'y.css'`. */
function isImport(statement: string): boolean {
  const text = statement.trim().replace(/;$/, '').trimEnd()
  const module = moduleAtEnd.exec(text)
  if (!module || !/^import[\s{*'"]/.test(text)) return false
  const before = text.slice(0, module.index).trimEnd()
  return before === 'import' || fromAtEnd.test(before)
}

/**
 * The last line of the statement starting at `start`: where its brackets
 * are balanced and a blank line, the next statement or the end follows
 * (MDX ends an ESM block at a blank line once it parses). A statement
 * whose brackets never balance ends at its first blank line: a broken
 * `export` must not take the rest of the document with it.
 */
function statementEnd(lines: readonly string[], start: number): number {
  let depth = 0
  let firstBlank: number | undefined
  for (let index = start; index < lines.length; index++) {
    depth += bracketBalance(lines[index]!)
    const next = lines[index + 1]
    if (depth <= 0 && (next === undefined || isBlank(next) || statementStart.test(next))) return index
    if (next !== undefined && isBlank(next)) firstBlank ??= index
  }
  return firstBlank ?? lines.length - 1
}

/** Opening minus closing brackets of a line, outside its string literals. */
function bracketBalance(line: string): number {
  let balance = 0
  let quote = ''
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!
    if (quote) {
      if (char === '\\') index++
      else if (char === quote) quote = ''
    } else if (char === '"' || char === "'" || char === '`') quote = char
    else if (char === '/' && line[index + 1] === '/') break
    else if ('([{'.includes(char)) balance++
    else if (')]}'.includes(char)) balance--
  }
  return balance
}

/**
 * Removes the `{/* … *\/}` comments of `site` outside code, keeping the
 * line breaks a comment spans (its lines stay, blank).
 */
export function dropMdxComments(site: SiteSource): void {
  const {lines} = site
  if (!lines.some((line) => line.includes('{/*'))) return
  const fences = new FenceTracker()
  // The text outside code, as ranges of lines: a comment may span lines but not leave its run of prose.
  let run: number[] = []
  const flush = () => {
    if (run.length > 0) removeComments(lines, run)
    run = []
  }
  for (let index = 0; index < lines.length; index++) {
    if (fences.isCode(splitPrefix(lines[index]!)[1])) flush()
    else run.push(index)
  }
  flush()
}

/** Removes the comments in the lines `indices` (consecutive, prose), not those inside inline code. */
function removeComments(lines: string[], indices: number[]): void {
  const text = indices.map((index) => lines[index]!).join('\n')
  if (!text.includes('{/*')) return
  const spans = codeSpans(text)
  let result = ''
  let last = 0
  for (let at = text.indexOf('{/*'); at !== -1; at = text.indexOf('{/*', last)) {
    const close = text.indexOf('*/}', at + 3)
    // No comment closes after this one: none of the openings left is a comment.
    if (close === -1) break
    const end = close + 3
    result += text.slice(last, at)
    last = end
    if (spans.some(([from, to]) => at >= from && at < to)) {
      result += text.slice(at, end)
      continue
    }
    // A comment between two spaces leaves one of them; the line breaks it spans stay.
    if (result.endsWith(' ') && text[end] === ' ') last++
    result += text.slice(at, end).replace(/[^\n]/g, '')
  }
  result += text.slice(last)
  result.split('\n').forEach((line, offset) => (lines[indices[offset]!] = line))
}

/** The [start, end) ranges of the inline code spans of `text` (a backtick run up to the next run as long). */
function codeSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = []
  const runs = /`+/g
  for (let open = runs.exec(text); open; open = runs.exec(text)) {
    const length = open[0].length
    for (let close = runs.exec(text); close; close = runs.exec(text)) {
      if (close[0].length === length) {
        spans.push([open.index, close.index + length])
        break
      }
    }
  }
  return spans
}

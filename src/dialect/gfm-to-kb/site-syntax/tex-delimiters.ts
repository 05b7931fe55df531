/**
 * TeX's own delimiters, `\(...\)` inline and `\[...\]` displayed, which
 * Hugo's passthrough extension (Docsy's math), pymdownx.arithmatex
 * (MkDocs), MathJax and KaTeX's auto-render show as formulas. CommonMark
 * reads `\(` as an escaped `(`: without this pass a reader would see
 * `(\LaTeX)`. Before the parse they are written as the `$$` delimiters the
 * math pass reads (two characters for two: every column stays where the
 * author wrote it); a display written over several lines gets its `$$` on
 * lines of their own. Only what a formula can be is taken: a display whose
 * `\[` stands alone on its line, or an inline pair holding TeX (a command,
 * `^`, `_`, braces or `=`; or `\(k\)`, a variable), so an author's escaped
 * `\(aside\)`, `file\(s\)` or `\[1\]` stays text. Code (fenced, indented, inline) is left as written.
 */
import {CodeLines} from './code-lines.js'
import {codeSpans, inSpan} from './hugo/code-spans.js'
import {isBlank, splitPrefix, type SiteSource} from './lines.js'

/** Whether `markdown` may hold a TeX delimiter: the cheap test before the pass. */
export function mayHoldTexDelimiters(markdown: string): boolean {
  return markdown.includes('\\(') || markdown.includes('\\[')
}

// What marks a formula written between `\(` and `\)` on one line (rather than an aside in escaped parentheses).
const texLike = /\\[A-Za-z]|[\^_{}=]/

/**
 * Whether `content`, between delimiters opened at `open` of `line`, is a
 * formula: TeX, or between `\(` and `\)` a variable of a letter or two
 * (`\(k\)`) standing apart from a word (`file\(s\)` is a plural); between
 * `\[` and `\]` in a line of text, a TeX command or `^` (`\[1\]`, `\[a=b\]` are
 * brackets an author escaped). Never with inline code or emphasis inside.
 */
function isTex(content: string, line: string, open: number): boolean {
  // Code spans or Markdown emphasis inside: an escaped bracket around an option (`\[**`--write`**=_`x`_\]`).
  if (/`|\*\*/.test(content)) return false
  if (line[open + 1] === '[') return /\\[A-Za-z]|\^/.test(content)
  if (texLike.test(content)) return true
  return /^[A-Za-z]{1,2}$/.test(content) && !/[\p{L}\p{N}]/u.test(line[open - 1] ?? '')
}

/** The longest inline formula read, in characters. */
const maxInlineLength = 2000

/** How far a display formula may run from its `\[` (TeX allows no blank line in one either). */
const maxDisplayLines = 200

/** Rewrites the TeX delimiters of `site` (see the module comment). */
export function rewriteTexDelimiters(site: SiteSource): void {
  const code = new CodeLines()
  const lines: string[] = []
  const origin: number[] = []
  for (let index = 0; index < site.lines.length; index++) {
    const line = site.lines[index]!
    if (code.isCode(line)) {
      lines.push(line)
      origin.push(site.origin[index]!)
      continue
    }
    const end = displayEnd(site.lines, index)
    if (end === undefined) {
      lines.push(inlineFormulas(line))
      origin.push(site.origin[index]!)
      continue
    }
    for (let at = index; at <= end; at++) code.isCode(site.lines[at]!)
    pushDisplay(site, index, end, lines, origin)
    index = end
  }
  site.lines = lines
  site.origin = origin
}

/**
 * The line closing the display formula opened at `index` (a line that is
 * `\[` and nothing else, past its container prefix), or undefined when
 * none opens there or none closes it before a blank line.
 */
function displayEnd(lines: readonly string[], index: number): number | undefined {
  const rest = splitPrefix(lines[index]!)[1]
  if (!/^\\\[[ \t\r]*$/.test(rest)) return undefined
  const last = Math.min(lines.length - 1, index + maxDisplayLines)
  for (let at = index + 1; at <= last; at++) {
    const inner = splitPrefix(lines[at]!)[1]
    // A blank line ends the paragraph a site's parser reads the formula from; a `$$` line would close it early.
    if (isBlank(inner) || inner.startsWith('$$')) return undefined
    if (/\\\][ \t\r]*$/.test(inner)) return at
  }
  return undefined
}

/** Writes the display from `start` to `end` as a `$$` block: its delimiters on lines of their own, the TeX between as written. */
function pushDisplay(site: SiteSource, start: number, end: number, lines: string[], origin: number[]): void {
  const prefix = splitPrefix(site.lines[start]!)[0]
  lines.push(prefix + '$$')
  origin.push(site.origin[start]!)
  for (let at = start + 1; at < end; at++) {
    lines.push(site.lines[at]!)
    origin.push(site.origin[at]!)
  }
  const closing = site.lines[end]!
  const before = closing.replace(/[ \t]*\\\][ \t\r]*$/, '')
  if (splitPrefix(before)[1] !== '') {
    lines.push(before)
    origin.push(site.origin[end]!)
  }
  lines.push(prefix + '$$')
  origin.push(site.origin[end]!)
}

/** Whether the backslash at `at` of `text` starts an escape (not itself escaped by the backslashes before it). */
function unescaped(text: string, at: number): boolean {
  let count = 0
  for (let back = at - 1; back >= 0 && text[back] === '\\'; back--) count++
  return count % 2 === 0
}

/** `line` with each inline pair `\(...\)` (and a one-line `\[...\]`) holding TeX written between `$$`, outside code spans. */
function inlineFormulas(line: string): string {
  if (!mayHoldTexDelimiters(line)) return line
  const spans = codeSpans(line)
  // The closers of each kind in order, met with a cursor that only moves on: linear however the pairs fall.
  const closers = {'(': new Closers(line, '\\)'), '[': new Closers(line, '\\]')}
  const nextOpening = openings(line)
  let result = ''
  let last = 0
  for (let open = nextOpening(0); open !== -1;) {
    const close = closers[line[open + 1] as '(' | '['].after(open + 2)
    if (close === -1) {
      open = nextOpening(open + 2)
      continue
    }
    // A pair further apart than any formula is none: its text is not read (each opener costs the same).
    const content = close - open > maxInlineLength ? '' : line.slice(open + 2, close)
    const formula = unescaped(line, open) && !inSpan(spans, open) && !inSpan(spans, close) && isTex(content, line, open)
    if (formula && !content.includes('$$') && content.trim() !== '') {
      result += line.slice(last, open) + '$$' + content + '$$'
      last = close + 2
      open = nextOpening(close + 2)
    } else open = nextOpening(open + 2)
  }
  return result + line.slice(last)
}

/** The unescaped closers (`\)` or `\]`) of a line, asked for in increasing order. */
class Closers {
  private readonly offsets: number[] = []
  private cursor = 0

  constructor(line: string, closer: string) {
    for (let at = line.indexOf(closer); at !== -1; at = line.indexOf(closer, at + 2))
      if (unescaped(line, at)) this.offsets.push(at)
  }

  /** The first closer at or after `from` (never less than an earlier call's `from`), or -1. */
  after(from: number): number {
    while (this.cursor < this.offsets.length && this.offsets[this.cursor]! < from) this.cursor++
    return this.offsets[this.cursor] ?? -1
  }
}

/** The offsets of `\(` and `\[` in a line, asked for in increasing order (each searched for once past the last found). */
function openings(line: string): (from: number) => number {
  const next = {round: -2, square: -2}
  const find = (kind: 'round' | 'square', marker: string, from: number): number => {
    if (next[kind] !== -1 && next[kind] < from) next[kind] = line.indexOf(marker, from)
    return next[kind]
  }
  return (from) => {
    const round = find('round', '\\(', from)
    const square = find('square', '\\[', from)
    if (round === -1) return square
    return square === -1 ? round : Math.min(round, square)
  }
}

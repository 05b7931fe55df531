/**
 * The work budget of a Markdown parse, checked by a linear scan before it.
 * micromark resolves emphasis, strikethrough and links by walking back
 * over the inline events of a paragraph for each delimiter, and splices
 * the paragraph's events for each match: a paragraph of d delimiters and
 * length L costs about d x L (80 KB of `*a` took over a minute, 80 KB of
 * `[a]` 21 s). Lists nested by indentation cost the cube of their depth
 * (1,000 levels, 1 MB, took 35 s), and the tree of a body takes some 200
 * times its size in memory (a 12.6 MB body took 2.7 GB). A body over any of
 * the budgets below is not parsed: the caller keeps it as text with a
 * message naming its line (`kb-over-budget`), so one hostile body costs a
 * run no more than its length. Real documents stay far below them (the
 * largest of seven real docs trees is 300 KB and scores below a tenth of
 * the delimiter budget).
 */

/** The largest body parsed, in characters (the largest real document we know is 300 KB). */
export const maxBodyLength = 2_000_000

/**
 * The delimiter budget: the sum, over the blocks of a body (lines between
 * blank lines), of the block's delimiters (runs of `*`, `_`, `~`, and each
 * `[`, `]`) times its length (a table's rows one by one). 10^7 is
 * about a fifth of a second of parsing; the real document that scores
 * highest (of seven docs trees) scores 7 x 10^5.
 */
export const maxDelimiterWork = 10_000_000

/**
 * The most white space in the prefix of a line that opens a list item or a
 * quote, in columns (a tab to the next multiple of 4). A list item nested
 * in another is indented at least two columns more, so this holds the
 * nesting a parse has to build by indentation to `maxNesting` (100) levels: a list
 * nested by indentation costs the cube of its depth (250 levels, 63 KB,
 * took 1.1 s; 1,000 levels, 35 s).
 */
export const maxContainerIndent = 100

/** How deep navigation outlines (`SUMMARY.md`, a `nav` in `mkdocs.yml`) may nest. */
export const maxOutlineDepth = 50

/** Why a body is over the budget, and the line where it shows. */
export interface BudgetExcess {
  line: number
  /** What is over, in one clause (e.g. `the body is 2000001 characters long, more than 2000000`). */
  reason: string
  /** Whether it is nesting (lists or quotes nested past the limit by indentation), which the nesting rule covers. */
  nesting?: boolean
}

/**
 * Whether parsing `source` stays within the budget: undefined when it does,
 * else what is over and where. Linear in the length of `source`, and reads
 * lines as text: it never needs the parse it guards.
 */
export function overBudget(source: string): BudgetExcess | undefined {
  if (source.length > maxBodyLength)
    return {line: 1, reason: `the body is ${source.length} characters long, more than ${maxBodyLength}`}
  const deep = deepContainer(source)
  if (deep !== undefined)
    return {
      line: deep,
      nesting: true,
      reason: `line ${deep} opens a list item or quote indented more than ${maxContainerIndent} columns, nested deeper than kbsync parses (flatten the lists there)`
    }
  const work = delimiterWork(source)
  if (work.total > maxDelimiterWork)
    return {
      line: work.line,
      reason: `the emphasis, strikethrough and link delimiters (\`*\`, \`_\`, \`~\`, \`[\`, \`]\`) from line ${work.line} on are more than a parse takes in linear time (write fewer in one paragraph)`
    }
  return undefined
}

/**
 * The delimiter work of `source` (see `maxDelimiterWork`), and the first
 * line of the block that takes it past the budget (of the last block when
 * none does). A table's cells are parsed one by one, so a block that opens
 * with a table's header and delimiter rows counts line by line. Linear.
 */
export function delimiterWork(source: string): {total: number; line: number} {
  const lines = source.split('\n')
  let total = 0
  let start = 0
  for (let index = 0; index <= lines.length; index++) {
    const line = index < lines.length ? lines[index]! : ''
    const blank = line.trim() === ''
    const heading = !blank && headingLine.test(line)
    if (!blank && !heading && !itemStart.test(line)) continue
    // The block before this line, and a heading (one line) by itself.
    total += blockWork(lines.slice(start, index)) + (heading ? delimitersOf(line) * line.length : 0)
    if (total > maxDelimiterWork) return {total, line: start + 1}
    start = blank || heading ? index + 1 : index
  }
  return {total, line: Math.max(1, start)}
}

/**
 * Lines that end the paragraph before them wherever they stand (at most
 * three spaces in, so no container reads them as its continuation): a list
 * item (a numbered one only from 1) and a heading.
 */
const itemStart = /^ {0,3}(?:[-+*]|1[.)])[ \t]+\S/
const headingLine = /^ {0,3}#{1,6}(?:[ \t]|$)/

/** The work of one block (its lines): its delimiters times its length, or a table's row by row. */
function blockWork(block: readonly string[]): number {
  if (block.length === 0) return 0
  if (isTable(block)) return block.reduce((sum, line) => sum + delimitersOf(line) * line.length, 0)
  const text = block.join('\n')
  return delimitersOf(text) * text.length
}

/** The delimiters of `text`: each run of `*`, `_` or `~`, and each bracket. */
function delimitersOf(text: string): number {
  let count = 0
  let previous = -1
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index)
    if (char === 0x5b || char === 0x5d || ((char === 0x2a || char === 0x5f || char === 0x7e) && char !== previous))
      count++
    previous = char
  }
  return count
}

const delimiterRow = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?$/

/** Whether `block` (lines) opens with a GFM table: a header row whose cells the delimiter row under it matches. */
function isTable(block: readonly string[]): boolean {
  if (block.length < 2) return false
  const [header, delimiter] = [block[0]!.trim(), block[1]!.trim()]
  return header.includes('|') && delimiterRow.test(delimiter) && cellsOf(header) === cellsOf(delimiter)
}

function cellsOf(row: string): number {
  const inner = row.replace(/^\|/, '').replace(/(?<!\\)\|$/, '')
  return inner.split(/(?<!\\)\|/).length
}

/** The first line that opens a list item or a quote indented past `maxContainerIndent` columns, if any. Linear. */
export function deepContainer(source: string): number | undefined {
  let line = 1
  for (let start = 0; start <= source.length; line++) {
    let end = source.indexOf('\n', start)
    if (end === -1) end = source.length
    if (prefixWidth(source, start, end) > maxContainerIndent) return line
    start = end + 1
  }
  return undefined
}

/**
 * The columns of white space in the container prefix that opens line
 * `start..end` (0 when it opens no item or quote). Markers themselves are
 * not counted: a line of many markers is held to the limit by
 * `boundContainers` (plugins/container-depth.ts), which escapes the one past it.
 */
function prefixWidth(source: string, start: number, end: number): number {
  let column = 0
  let indent = 0
  let opens = false
  let index = start
  while (index < end) {
    const char = source[index]!
    if (char === ' ' || char === '\t') {
      const width = char === ' ' ? 1 : 4 - (column % 4)
      column += width
      indent += width
      index++
      continue
    }
    let after = char === '>' ? index + 1 : markerEnd(source, index, end)
    if (after === undefined) break
    // The space after a marker belongs to it (`> > x`, `- - x` nest by markers, which boundContainers holds).
    if (source[after] === ' ') after++
    column += after - index
    index = after
    opens = true
  }
  return opens ? indent : 0
}

/** The end of a list marker at `index` (`-`, `+`, `*`, `1.`, `1)` followed by white space or the line's end). */
function markerEnd(source: string, index: number, end: number): number | undefined {
  let at = index
  while (at < end && at - index < 9 && source.charCodeAt(at) >= 0x30 && source.charCodeAt(at) <= 0x39) at++
  const ok = at > index ? source[at] === '.' || source[at] === ')' : '-+*'.includes(source[at]!)
  if (!ok) return undefined
  const next = source[at + 1]
  return at + 1 >= end || next === ' ' || next === '\t' ? at + 1 : undefined
}

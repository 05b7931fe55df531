/**
 * A table the platform changed only in its rows (same columns, same
 * alignment): the changed rows are written on their own lines, the others
 * stay byte for byte. Written whole, one edited cell rewrote every line of
 * a table padded by its author (a formatter's column widths). A table
 * written in HTML is patched inside its tags (`html-table.ts`).
 */
import type {Nodes, Root, Table, TableCell, TableRow} from 'mdast'
import {rangeOf, type SourceRange} from './blocks.js'
import {diffKeys, type Hunk} from './block-diff.js'
import {stringifyKb} from '../dialect/index.js'
import type {Edit} from './splice.js'
import {htmlTableEdits, writtenInHtml} from './html-table.js'

/** What the rows of one table are patched from. */
interface Rows {
  source: string
  starts: readonly number[]
  base: Table
  remote: Table
  /** Remote rows in the author's form: the table's last line. */
  written(row: TableRow): string | undefined
}

/** A cell boundary: a pipe no backslash escapes. */
const pipe = /(?<!\\)\|/

/** A table holding `rows` in `table`'s shell. */
function tableOf(table: Table, rows: TableRow[]): Root {
  return {type: 'root', children: [{...table, children: rows}]}
}

/** A row's key: its canonical text alone, in the table's shell. */
function rowKey(table: Table, row: TableRow): string {
  return stringifyKb(tableOf(table, [row]))
}

/**
 * The edits that patch a table row by row, when both blocks are tables of
 * the same columns and alignment and the header stays; undefined to write
 * the table whole. `starts` are the source's line starts; `toAuthor` writes
 * blocks in the author's form.
 */
export function tableRowEdits(
  source: string,
  starts: readonly number[],
  base: Nodes,
  remote: Nodes,
  toAuthor: (blocks: Root) => string
): Edit[] | undefined {
  if (base.type !== 'table' || remote.type !== 'table') return undefined
  // A table written in HTML is patched inside its tags: a pipe row there would read back as text.
  if (writtenInHtml(source, starts, base)) return htmlTableEdits({source, starts, toAuthor}, base, remote)
  if (JSON.stringify(base.align ?? []) !== JSON.stringify(remote.align ?? [])) return undefined
  const header = remote.children[0]
  if (!header || base.children.length === 0) return undefined
  const rows: Rows = {
    source,
    starts,
    base,
    remote,
    written: (row) =>
      toAuthor(tableOf(remote, [header, row]))
        .replace(/\n+$/, '')
        .split('\n')
        .at(-1)
  }
  const hunks = diffKeys(
    base.children.map((row) => rowKey(base, row)),
    remote.children.map((row) => rowKey(remote, row))
  )
  const edits: Edit[] = []
  for (const hunk of hunks) {
    // The header's line is followed by the delimiter row: a header changed is written with the table.
    if (hunk.baseStart === 0 || hunk.remoteStart === 0) return undefined
    const hunkEdits = hunkEdit(rows, hunk)
    if (!hunkEdits) return undefined
    edits.push(hunkEdits)
  }
  return edits
}

/** The edit of one hunk of rows: the base rows' lines replaced by the remote rows' lines, after the row before. */
function hunkEdit(rows: Rows, hunk: Hunk): Edit | undefined {
  const {source, starts, base, remote} = rows
  const before = rangeOf(base.children[hunk.baseStart - 1]!, source, starts)
  const replaced: SourceRange[] = []
  for (const row of base.children.slice(hunk.baseStart, hunk.baseEnd)) {
    const range = rangeOf(row, source, starts)
    if (!range || range.startLine !== range.endLine) return undefined
    replaced.push(range)
  }
  if (!before) return undefined
  const start = startOf(rows, hunk, replaced[0], before)
  if (start === undefined) return undefined
  const prefix = source.slice(starts[before.startLine - 1], before.start)
  const widths = columnWidths(source, starts, base)
  const lines: string[] = []
  const oneForOne = hunk.baseEnd - hunk.baseStart === hunk.remoteEnd - hunk.remoteStart
  for (const [index, row] of remote.children.slice(hunk.remoteStart, hunk.remoteEnd).entries()) {
    const line = rows.written(row)
    if (line === undefined || !line.startsWith('|')) return undefined
    const own = replaced[index]
    const kept =
      oneForOne && own
        ? keptCells(line, source.slice(own.start, own.end), base.children[hunk.baseStart + index]!, row)
        : line
    lines.push(prefix + padded(kept, widths, base.align ?? []))
  }
  return {start, end: replaced.at(-1)?.end ?? start, text: lines.map((line) => '\n' + line).join('')}
}

/**
 * Where a hunk's lines start: at the line break before its first row, or
 * before the next row's line (after the delimiter row, for the first body
 * row); after the last row at the end. Undefined for rows under a header
 * alone (the delimiter row's end is not known from the rows).
 */
function startOf(rows: Rows, hunk: Hunk, first: SourceRange | undefined, before: SourceRange): number | undefined {
  const lineBreakBefore = (range: SourceRange) => rows.starts[range.startLine - 1]! - 1
  if (first) return lineBreakBefore(first)
  const next = rows.base.children[hunk.baseStart]
  if (next) {
    const range = rangeOf(next, rows.source, rows.starts)
    return range && lineBreakBefore(range)
  }
  return hunk.baseStart > 1 ? before.end : undefined
}

/** A cell's canonical text: two cells are the same when theirs are. */
function cellKey(cell: TableCell): string {
  return stringifyKb({type: 'root', children: [{type: 'paragraph', children: cell.children}]})
}

/**
 * A row the platform changed, written with the author's own text in the
 * cells it did not change (a reference link, `\|`, a formatter's spacing):
 * only the edited cells are the platform's, written as pull writes them.
 */
function keptCells(written: string, ownLine: string, base: TableRow, remote: TableRow): string {
  const cells = cellsOf(written)
  const own = cellsOf(ownLine)
  const count = remote.children.length
  if (cells.length !== count || own.length !== count || base.children.length !== count) return written
  const merged = cells.map((cell, index) =>
    cellKey(base.children[index]!) === cellKey(remote.children[index]!) ? own[index]!.trim() : cell.trim()
  )
  return '| ' + merged.join(' | ') + ' |'
}

/** A line's cells, without the outer pipes. */
function cellsOf(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split(pipe)
}

/**
 * The widths of the columns when the author padded the table (every line
 * of it as long as the others, each cell one space from its pipes);
 * undefined when not.
 */
function columnWidths(source: string, starts: readonly number[], table: Table): number[] | undefined {
  const range = rangeOf(table, source, starts)
  if (!range) return undefined
  const lines = source.slice(range.start, range.end).split('\n')
  if (lines.some((line) => line.trimEnd().length !== lines[0]!.trimEnd().length)) return undefined
  return cellsOf(lines[0]!).map((cell) => cell.length - 2)
}

/** A written row padded to the author's column widths, when each cell fits; as written otherwise. */
function padded(line: string, widths: readonly number[] | undefined, align: readonly (string | null)[]): string {
  const cells = cellsOf(line).map((cell) => cell.trim())
  if (!widths || cells.length !== widths.length || cells.some((cell, index) => cell.length > widths[index]!))
    return line
  const pad = (cell: string, index: number) => {
    const room = widths[index]! - cell.length
    if (align[index] === 'right') return ' '.repeat(room) + cell
    if (align[index] === 'center') return ' '.repeat(room >> 1) + cell + ' '.repeat(room - (room >> 1))
    return cell + ' '.repeat(room)
  }
  return '| ' + cells.map(pad).join(' | ') + ' |'
}

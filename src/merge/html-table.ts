/**
 * A table the author wrote in HTML (`<table>`, Jekyll's pages) and the
 * platform changed in its cells or dropped rows of: each edited cell is
 * patched word by word inside its `<td>`, a dropped row takes its `<tr>`
 * lines with it. Written whole, the table became a pipe table inside the
 * author's HTML block, which reads back as text: the proof refused it.
 */
import type {Nodes, Root, RootContent, Table, TableCell, TableRow} from 'mdast'
import {offsetOf, rangeOf} from './blocks.js'
import {diffKeys, type Hunk} from './block-diff.js'
import {stringifyKb} from '../dialect/index.js'
import {blockText, type Edit} from './splice.js'
import {patchWords} from './words.js'

/** What the cells of one HTML table are patched from: the file, its line starts, the author's writer. */
export interface Cells {
  source: string
  starts: readonly number[]
  toAuthor: (blocks: Root) => string
}

/** Whether a block's source starts with a tag: the author wrote it in HTML. */
export function writtenInHtml(source: string, starts: readonly number[], block: Nodes): boolean {
  const range = rangeOf(block, source, starts)
  return range !== undefined && source[range.start] === '<'
}

/** A node's canonical text, as the only child of a root. */
function keyOf(node: RootContent): string {
  return stringifyKb({type: 'root', children: [node]})
}

/** A cell's content as a paragraph: what is compared and written of it. */
function paragraphOf(cell: TableCell): RootContent {
  return {type: 'paragraph', children: cell.children}
}

/**
 * The edits that patch an HTML table's changed cells and dropped rows;
 * undefined when the table's columns changed, a row was added, or a changed
 * cell's text cannot be located (the table is then written whole).
 */
export function htmlTableEdits(cells: Cells, base: Table, remote: Table): Edit[] | undefined {
  const rowKey = (table: Table, row: TableRow) => keyOf({...table, children: [row]})
  const hunks = diffKeys(
    base.children.map((row) => rowKey(base, row)),
    remote.children.map((row) => rowKey(remote, row))
  )
  const edits: Edit[] = []
  for (const hunk of hunks) {
    const hunkEdits = rowsEdits(cells, hunk, base, remote)
    if (!hunkEdits) return undefined
    edits.push(...hunkEdits)
  }
  return edits
}

/** The edits of one hunk of rows: cells patched row by row, or rows deleted. */
function rowsEdits(cells: Cells, hunk: Hunk, base: Table, remote: Table): Edit[] | undefined {
  const bases = base.children.slice(hunk.baseStart, hunk.baseEnd)
  const remotes = remote.children.slice(hunk.remoteStart, hunk.remoteEnd)
  if (remotes.length === 0) return rowDeletions(cells, bases)
  if (bases.length !== remotes.length) return undefined
  const edits: Edit[] = []
  for (const [index, row] of bases.entries()) {
    const other = remotes[index]!
    if (row.children.length !== other.children.length) return undefined
    for (const [column, cell] of row.children.entries()) {
      const counterpart = other.children[column]!
      if (keyOf(paragraphOf(cell)) === keyOf(paragraphOf(counterpart))) continue
      const edit = cellEdit(cells, cell, counterpart)
      if (!edit) return undefined
      edits.push(edit)
    }
  }
  return edits
}

/** A changed cell's text, from its first inline's start to its last's end, patched word by word. */
function cellEdit(cells: Cells, base: TableCell, remote: TableCell): Edit | undefined {
  const {source, starts, toAuthor} = cells
  const first = base.children[0]?.position?.start
  const last = base.children.at(-1)?.position?.end
  if (!first || !last) return undefined
  const start = offsetOf(first, starts, source.length)
  const end = offsetOf(last, starts, source.length)
  if (start === undefined || end === undefined || end <= start) return undefined
  const written = (cell: TableCell) => blockText(toAuthor({type: 'root', children: [paragraphOf(cell)]}))
  const text = patchWords(source.slice(start, end), written(base), written(remote), false)
  return text === undefined ? undefined : {start, end, text}
}

/** Rows the platform dropped: each row's whole lines, when nothing else shares them. */
function rowDeletions(cells: Cells, rows: readonly TableRow[]): Edit[] | undefined {
  const {source, starts} = cells
  const edits: Edit[] = []
  for (const row of rows) {
    const range = rangeOf(row, source, starts)
    if (!range) return undefined
    const lineStart = starts[range.startLine - 1]!
    const lineEnd = starts[range.endLine] ?? source.length
    if (source.slice(lineStart, range.start).trim() !== '' || !/^\s*$/.test(source.slice(range.end, lineEnd)))
      return undefined
    edits.push({start: lineStart, end: lineEnd, text: ''})
  }
  return edits
}

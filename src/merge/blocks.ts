/**
 * Blocks as the merge compares and locates them: a block's key (its
 * canonical dialect text, serialised alone), its shell (what a container is
 * apart from its children), and its place in the source as offsets.
 */
import type {Nodes, Parent, Root, RootContent} from 'mdast'
import type {Point} from 'unist'
import {stringifyKb} from '../dialect/index.js'

/** The block containers whose children the merge may patch one by one, keeping the author's container syntax. */
const containerTypes = new Set(['hintBlock', 'details', 'blockquote', 'list', 'listItem'])

/** Fields that are not part of a node's shell. */
const notShell = new Set(['children', 'position', 'data'])

/** A root holding `blocks`, as their parent holds them: list items inside their list's shell, numbered from their place. */
export function rootOf(blocks: readonly RootContent[], parent?: Parent, index = 0): Root {
  if (parent?.type !== 'list') return {type: 'root', children: [...blocks]}
  const list = parent as Extract<Nodes, {type: 'list'}>
  const start = list.ordered ? (list.start ?? 1) + index : list.start
  return {type: 'root', children: [{...list, start, children: blocks as typeof list.children}]}
}

/**
 * The key a block is compared by: its canonical dialect text, serialised
 * alone (as a child of `parent`, when it is not a top-level block).
 */
export function blockKey(block: RootContent, parent?: Parent): string {
  // A list item is keyed inside a one-item list of its list's shell, numbered as the first: its number is the list's.
  return stringifyKb(rootOf([block], parent))
}

/** Whether a block holds blocks the merge may patch one by one. */
export function isContainer(node: Nodes): node is Parent & RootContent {
  return containerTypes.has(node.type) && 'children' in node
}

/** A container's shell: its type and attributes, without children and positions. */
export function shellOf(node: Nodes): string {
  const fields = Object.entries(node)
    // An absent field and a null one are the same shell (a list the conversion made has no `start: null`).
    .filter(([name, value]) => !notShell.has(name) && value !== null && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return JSON.stringify(fields)
}

/** Whether two blocks are containers of the same kind and attributes (their children may differ). */
export function sameShell(base: Nodes, remote: Nodes): boolean {
  return isContainer(base) && isContainer(remote) && shellOf(base) === shellOf(remote)
}

/** A text's lines as offsets: where each line starts (line 1 at index 0). */
export function lineStartsOf(text: string): number[] {
  const starts = [0]
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1)
  return starts
}

/** The offset of a line/column point in the text whose line starts are `starts`; undefined when outside it. */
export function offsetOf(point: Point, starts: readonly number[], length: number): number | undefined {
  const lineStart = starts[point.line - 1]
  if (lineStart === undefined || point.column < 1) return undefined
  const offset = lineStart + point.column - 1
  const lineEnd = point.line < starts.length ? starts[point.line]! - 1 : length
  return offset <= lineEnd ? offset : undefined
}

/** A block's source range as offsets, when it has a position inside the text. */
export interface SourceRange {
  start: number
  end: number
  startLine: number
  endLine: number
}

/** A GitHub alert's marker alone on its line: the alert's first paragraph starts on the next line. */
const alertMarker = /^\[![A-Za-z]+\][ \t]*\r?$/

/**
 * The source range of a block, or undefined when it has no position in
 * the text (or an empty one: a node the conversion made, such as an
 * admonition's title). Blocks are whole lines from their start: the range
 * runs to the end of the last line (the docs-site pass keeps lines, not
 * end columns), from the first character that is not indentation (a child
 * of `!!! note` is dedented before the parse, its columns are the
 * dedented ones), on the line after an alert's `[!NOTE]` marker.
 */
export function rangeOf(node: Nodes, source: string, starts: readonly number[]): SourceRange | undefined {
  const position = node.position
  if (!position) return undefined
  const {start: first, end: last} = position
  if (first.line === last.line && first.column >= last.column) return undefined
  let start = offsetOf(first, starts, source.length)
  const lineEnd = endOfLine(source, starts, last.line)
  if (start === undefined || lineEnd === undefined) return undefined
  let startLine = first.line
  if (alertMarker.test(source.slice(start, endOfLine(source, starts, startLine)))) {
    startLine++
    start = offsetOf({line: startLine, column: first.column}, starts, source.length)
    if (start === undefined || !/^[ \t>]*$/.test(source.slice(starts[startLine - 1], start))) return undefined
  }
  // Indented code keeps its indentation: it is the code's syntax.
  if (node.type !== 'code') while (start < lineEnd && (source[start] === ' ' || source[start] === '\t')) start++
  if (lineEnd <= start || startLine > last.line) return undefined
  return {start, end: lineEnd, startLine, endLine: last.line}
}

/** The offset of the end of a line (before its newline and carriage return), undefined past the text. */
function endOfLine(source: string, starts: readonly number[], line: number): number | undefined {
  const lineStart = starts[line - 1]
  if (lineStart === undefined) return undefined
  let end = line < starts.length ? starts[line]! - 1 : source.length
  if (source[end - 1] === '\r') end--
  return end
}

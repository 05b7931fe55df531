/**
 * One HTML fragment from a run of sibling mdast nodes: the `html` nodes'
 * text as written, text nodes as HTML text, every other node as a slot
 * element standing for it. Parsing the fragment once pairs tags written in
 * separate `html` nodes (`<div class="note">`, a paragraph, `</div>`) the
 * way a browser does, with the Markdown between them kept as parsed.
 */
import type {Code, Html, Nodes, RootContent} from 'mdast'
import type {Point, Position} from 'unist'

/** The element a node that is not HTML stands as in a fragment; `data-i` is its index in `slots`. */
export const slotTag = 'kbsync-slot'

/** Where a stretch of the fragment came from: an `html` node's text or another node. */
interface Segment {
  /** Offset of the stretch in the fragment. */
  at: number
  /** The node the stretch was written for. */
  node: Nodes
  /** Whether the stretch is the node's text as written (an `html` node, or indented code read as HTML). */
  verbatim: boolean
}

/** A run of nodes written as one HTML fragment. */
export interface Fragment {
  value: string
  /** The nodes that stand as slots, by `data-i`. */
  slots: Nodes[]
  /** The `html` nodes of the run. */
  html: Html[]
  segments: Segment[]
  /** Whether the nodes are blocks (the run of a block container), not text. */
  flow: boolean
}

/** Text safe in HTML text: its value exactly once parsed. */
function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;')
}

/**
 * Whether `code` is an indented code block (not fenced). Between HTML
 * blocks one is nearly always the HTML's own indentation after a blank line
 * (`<td><p>`, a blank line, then the text indented with the tags), which
 * sites render as HTML: so it is read as HTML there, not shown as code.
 */
function isIndentedCode(code: Code, source: string | undefined): boolean {
  const start = code.position?.start.offset
  if (source === undefined || start === undefined || code.lang) return false
  const first = source.charAt(start)
  return first !== '`' && first !== '~'
}

/**
 * The fragment of `nodes` (siblings), flow nodes on lines of their own when
 * `flow`; `source` (the parsed Markdown) tells indented code from fenced.
 */
export function buildFragment(nodes: readonly RootContent[], flow: boolean, source?: string): Fragment {
  const fragment: Fragment = {value: '', slots: [], html: [], segments: [], flow}
  for (const node of nodes) {
    if (flow && fragment.value !== '') fragment.value += '\n'
    const html = node.type === 'html' || (node.type === 'code' && isIndentedCode(node, source))
    fragment.segments.push({at: fragment.value.length, node, verbatim: html})
    if (html) {
      if (node.type === 'html') fragment.html.push(node)
      fragment.value += node.value
    } else if (node.type === 'text') {
      fragment.value += escapeText(node.value)
    } else {
      // Not empty: the whitespace around an empty element would be collapsed as if it were not there.
      fragment.value += `<${slotTag} data-i="${fragment.slots.length}">.</${slotTag}>`
      fragment.slots.push(node)
    }
  }
  return fragment
}

/** The segment holding fragment offset `offset` (the segments are in order). */
function segmentAt(fragment: Fragment, offset: number): Segment | undefined {
  const {segments} = fragment
  let low = 0
  let high = segments.length - 1
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if (segments[middle]!.at <= offset) low = middle
    else high = middle - 1
  }
  return segments[low]
}

/**
 * The source point of fragment offset `offset`. Inside an `html` node it is
 * exact on the node's first line; on its later lines the column assumes the
 * container prefix of the first (`> `, list indent), and the offset is left
 * out. Anywhere else it is the start of the node the stretch stands for.
 */
export function locate(fragment: Fragment, offset: number): Point | undefined {
  const segment = segmentAt(fragment, offset)
  const start = segment?.node.position?.start
  if (!segment || !start) return undefined
  if (!segment.verbatim) return start
  const value = (segment.node as Html | Code).value
  const within = Math.min(offset - segment.at, value.length)
  let line = start.line
  let lineStart = -1
  for (let index = value.indexOf('\n'); index !== -1 && index < within; index = value.indexOf('\n', index + 1)) {
    line++
    lineStart = index
  }
  if (lineStart === -1)
    return {line, column: start.column + within, offset: start.offset === undefined ? undefined : start.offset + within}
  return {line, column: start.column + within - lineStart - 1}
}

/** `position` (of the fragment) as a position in the source, or undefined. */
export function sourcePosition(fragment: Fragment, position: Position | undefined): Position | undefined {
  const startOffset = position?.start.offset
  const endOffset = position?.end.offset
  if (startOffset === undefined || endOffset === undefined) return undefined
  const start = locate(fragment, startOffset)
  const end = locate(fragment, Math.max(startOffset, endOffset - 1))
  if (!start || !end) return undefined
  return {start, end: {...end, column: end.column + 1, offset: end.offset === undefined ? undefined : end.offset + 1}}
}

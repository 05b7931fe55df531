/**
 * Splitting a flow parent's children for pairing: block tags written inside
 * a paragraph (tight blocks, content on the tag's line) are split out of it,
 * and lines of tags are split into single tags. The pieces of a paragraph
 * remember where they came from, so that what pairing leaves unpaired is
 * put back together as it was written (`rejoin`): written back, a stray tag
 * then stays on its line instead of moving to one of its own, where it
 * would read differently (issue 22).
 */
import type {Html, Paragraph, PhrasingContent, RootContent} from 'mdast'
import type {Position} from 'unist'
import {codes} from 'micromark-util-symbol'
import {readTagLine, type KbTag} from '../syntax/tag.js'
import {isBlockTag, isDialectTag} from '../syntax/vocabulary.js'
import {append} from './pairing.js'
import {splitClosingLine} from './closing-line.js'
import {dialectTagOf, mergeText, span} from './tags.js'

/** A block tag waiting to be paired, and its `html` node. */
export interface TagItem {
  type: 'kbTagItem'
  tag: KbTag
  html: Html
}

/** A flow item: a node, or a tag waiting to be paired. */
export type FlowItem = RootContent | TagItem

/** Split block tags out of paragraphs and lines of tags into single tags; `pieces` learns where each piece came from. */
export function splitFlow(children: RootContent[], pieces: Pieces): FlowItem[] {
  const items: FlowItem[] = []
  for (const child of children) {
    if (child.type === 'paragraph' && child.children.some((c) => c.type === 'html' && isBlockHtml(c))) {
      splitParagraph(child, items, pieces)
    } else if (child.type === 'html' && child.value.charCodeAt(0) === codes.lessThan) {
      if (!splitClosingLine(child, items, pieces)) splitTagLine(child, items, pieces)
    } else {
      items.push(child)
    }
  }
  return items
}

function isBlockHtml(node: Html): boolean {
  const tag = dialectTagOf(node)
  return tag !== undefined && isBlockTag(tag)
}

function splitTagLine(html: Html, items: FlowItem[], pieces: Pieces): void {
  const line = readTagLine(html.value)
  if (!line || !isBlockLine(line.tags)) {
    items.push(html)
    return
  }
  // Inline tags on the line are phrasing: written back, a run of them is a
  // line of its own, which is read as a paragraph.
  let run: Paragraph | undefined
  let previousEnd = 0
  for (let index = 0; index < line.tags.length; index++) {
    const tag = line.tags[index]
    const start = line.starts[index]
    const end = line.ends[index]
    // Made whole, not given its position after: a node that grows a field
    // costs V8 a second allocation (and the collector a second object).
    const value = line.raws[index]
    const piece: Html = html.position
      ? {type: 'html', value, position: shift(html.position, start, end)}
      : {type: 'html', value}
    if (isBlockTag(tag)) {
      run = undefined
      // One object is both the item pairing reads and the piece rejoining
      // reads: a line of thousands of tags allocates one object less per tag.
      const item: TagItem & Piece = {
        type: 'kbTagItem',
        tag,
        html: piece,
        source: html,
        before: '',
        after: '',
        start,
        end
      }
      pieces.set(piece, item)
      items.push(item)
    } else {
      if (!run) {
        items.push((run = {type: 'paragraph', children: []}))
        pieces.set(run, {source: html, before: '', after: '', start, end})
      } else if (start > previousEnd) run.children.push({type: 'text', value: html.value.slice(previousEnd, start)})
      run.children.push(piece)
      ;(pieces.get(run) as Piece).end = end
      const position = span(run.children[0], piece)
      if (position) run.position = position
    }
    previousEnd = end
  }
}

/** Whether a line's tags are the dialect's, one at least a block tag: only such a line is split. */
function isBlockLine(tags: KbTag[]): boolean {
  let block = false
  for (const tag of tags) {
    if (!isDialectTag(tag)) return false
    if (!block && isBlockTag(tag)) block = true
  }
  return block
}

function shift(position: Position, start: number, end: number): Position {
  const {line, column, offset} = position.start
  return {
    start: {line, column: column + start, offset: offset === undefined ? undefined : offset + start},
    end: {line, column: column + end, offset: offset === undefined ? undefined : offset + end}
  }
}

/**
 * Where a piece came from: the paragraph or the line of tags (`html`) it
 * was split out of; for a paragraph's piece, the blank text the split
 * dropped at its edges; for a line's, where in the line it is.
 */
export interface Piece {
  source: Paragraph | Html
  before: string
  after: string
  start: number
  end: number
}

/** The pieces of one flow parent's split, by node (a Map for the split: WeakMaps cost the collector dearly). */
export type Pieces = Map<object, Piece>

function splitParagraph(paragraph: Paragraph, items: FlowItem[], pieces: Pieces): void {
  let run: PhrasingContent[] = []
  // Blank text of runs dropped whole, kept for the next piece.
  let dropped = ''
  const flush = () => {
    const {children, before, after} = trimRun(run)
    run = []
    if (children.length === 0) {
      dropped += before + after
      return
    }
    const node: Paragraph = {type: 'paragraph', children}
    const position = span(children[0], children[children.length - 1])
    if (position) node.position = position
    pieces.set(node, {source: paragraph, before: dropped + before, after, start: 0, end: 0})
    dropped = ''
    items.push(node)
  }
  for (const child of paragraph.children) {
    if (child.type === 'html' && isBlockHtml(child)) {
      flush()
      pieces.set(child, {source: paragraph, before: dropped, after: '', start: 0, end: 0})
      dropped = ''
      items.push({type: 'kbTagItem', tag: dialectTagOf(child) as KbTag, html: child})
    } else {
      run.push(child)
    }
  }
  flush()
}

/** Drop the line endings and spaces a split left at the edges of a run; returns what was dropped too. */
function trimRun(run: PhrasingContent[]): {children: PhrasingContent[]; before: string; after: string} {
  const children = [...run]
  let before = ''
  let after = ''
  const first = children[0]
  if (first && first.type === 'text') {
    const value = first.value.replace(/^[ \t]*(?:\r?\n|\r)?[ \t]*/, '')
    before = first.value.slice(0, first.value.length - value.length)
    if (value) children[0] = {...first, value}
    else children.shift()
  }
  const last = children[children.length - 1]
  if (last && last.type === 'text') {
    const value = last.value.replace(/[ \t]*(?:\r?\n|\r)?[ \t]*$/, '')
    after = last.value.slice(value.length)
    if (value) children[children.length - 1] = {...last, value}
    else children.pop()
  }
  return {children, before, after}
}

/**
 * `items` (paired flow content) with each run of side-by-side pieces of one
 * paragraph joined back into a paragraph, and of one line of tags back into
 * an `html` node: the tags among them were not paired, and stay in the line
 * they were written in.
 */
export function rejoin(items: RootContent[], pieces: Pieces): RootContent[] {
  if (pieces.size === 0) return items
  const result: RootContent[] = []
  for (let index = 0; index < items.length;) {
    const source = pieces.get(items[index])?.source
    let end = index + 1
    while (source && end < items.length && pieces.get(items[end])?.source === source) end++
    if (end - index < 2) result.push(items[index])
    else
      result.push(
        source?.type === 'html' ? joinLine(source, items, index, end, pieces) : joinPieces(items, index, end, pieces)
      )
    index = end
  }
  return result
}

/** The part of a line of tags that the pieces `items[start..end)` were split from, as one node. */
function joinLine(line: Html, items: RootContent[], start: number, end: number, pieces: Pieces): Paragraph | Html {
  const first = pieces.get(items[start]) as Piece
  const last = pieces.get(items[end - 1]) as Piece
  if (
    first.start === 0 &&
    last.end === line.value.length &&
    items.slice(start, end).every((item) => item.type === 'html')
  )
    return line
  const children: PhrasingContent[] = []
  let previous: Piece | undefined
  for (let index = start; index < end; index++) {
    const item = items[index]
    const piece = pieces.get(item) as Piece
    if (previous && piece.start > previous.end)
      children.push({type: 'text', value: line.value.slice(previous.end, piece.start)})
    if (item.type === 'paragraph') append(children, item.children)
    else children.push(item as Html)
    previous = piece
  }
  return joined(children, items[start], items[end - 1])
}

/** One paragraph of the pieces `items[start..end)`, with the blank text between them back. */
function joinPieces(items: RootContent[], start: number, end: number, pieces: Pieces): Paragraph | Html {
  const children: PhrasingContent[] = []
  for (let index = start; index < end; index++) {
    const item = items[index]
    const piece = pieces.get(item) as Piece
    if (index > start && piece.before) children.push({type: 'text', value: piece.before})
    if (item.type === 'paragraph') append(children, item.children)
    else children.push(item as Html)
    if (index < end - 1 && piece.after) children.push({type: 'text', value: piece.after})
  }
  return joined(children, items[start], items[end - 1])
}

/** The pieces joined: a line of tags (`asTagLine`) as `html`, anything else a paragraph. */
function joined(children: PhrasingContent[], first: RootContent, last: RootContent): Paragraph | Html {
  const position = span(first, last)
  const line = asTagLine(children)
  const node: Paragraph | Html =
    line === undefined ? {type: 'paragraph', children: mergeText(children)} : {type: 'html', value: line}
  if (position) node.position = position
  return node
}

/**
 * The text of `children` when they are tags on one line, a block tag first:
 * written back, such a line is read as a line of tags (an `html` node), so
 * it is one now.
 */
function asTagLine(children: PhrasingContent[]): string | undefined {
  const first = children[0]
  if (!first || first.type !== 'html' || !isBlockHtml(first)) return undefined
  let value = ''
  for (const child of children) {
    if (child.type === 'html' && !child.value.includes('\n')) value += child.value
    else if (child.type === 'text' && /^[ \t]*$/.test(child.value)) value += child.value
    else return undefined
  }
  return value
}

/**
 * The closing tag on the last line of an HTML block, split off for pairing
 * (see `splitClosingLine`).
 */
import type {Html} from 'mdast'
import {readTagLine} from '../syntax/tag.js'
import {isBlockTag} from '../syntax/vocabulary.js'
import type {FlowItem, Piece, Pieces, TagItem} from './split.js'

/**
 * `<p>Text.</p>` then `</details>` on the next line, no blank line between:
 * CommonMark reads both lines as one HTML block, which would hide the
 * closing tag from pairing. A last line holding only a block tag's closing
 * tag is split off as its own tag (rejoined when it pairs with nothing).
 */
export function splitClosingLine(html: Html, items: FlowItem[], pieces: Pieces): boolean {
  const cut = html.value.lastIndexOf('\n')
  if (cut < 0) return false
  const raw = html.value.slice(cut + 1).trimEnd()
  const line = raw.startsWith('</') ? readTagLine(raw) : undefined
  const tag = line?.tags.length === 1 ? line.tags[0]! : undefined
  if (!tag || !tag.closing || !isBlockTag(tag) || line!.starts[0] !== 0) return false
  const value = html.value.slice(0, cut)
  // A block that opens the same element closes it itself (`<div class="note">` ... `</div>`): it is no dialect block.
  if (value.toLowerCase().includes(`<${tag.name}`)) return false
  const end = html.position?.end
  const head: Html = {type: 'html', value}
  const closing: Html = {type: 'html', value: raw}
  if (html.position && end) {
    const tagStart = {line: end.line, column: Math.max(1, end.column - raw.length), offset: undefined}
    const lastLine = value.slice(value.lastIndexOf('\n') + 1).length
    const column = (value.includes('\n') ? 1 : html.position.start.column) + lastLine
    head.position = {start: html.position.start, end: {line: end.line - 1, column, offset: undefined}}
    closing.position = {start: tagStart, end}
  }
  pieces.set(head, {source: html, before: '', after: '', start: 0, end: cut})
  const item: TagItem & Piece = {
    type: 'kbTagItem',
    tag,
    html: closing,
    source: html,
    before: '',
    after: '',
    start: cut + 1,
    end: html.value.length
  }
  pieces.set(closing, item)
  items.push(head, item)
  return true
}

/**
 * A line that starts with a closing block tag closing nothing (`</div>` in
 * plain Markdown) is CommonMark HTML: the HTML block it starts runs to the
 * next blank line, so the lines written right under it are raw text, not
 * Markdown (CommonMark example 151: `</div>` then `*foo*`). The tokenizer
 * takes such a line as a line of tags wherever it is (whether an opener came
 * before depends on where a pass wrote that opener: deciding there made a
 * body read differently once written back), so it is decided here, once
 * pairing knows the tag closes nothing: the line and the siblings written
 * right under it, up to the next blank line, are kept as written (see
 * `kept.ts`), one `html` node, as CommonMark reads them.
 */
import type {Html, RootContent} from 'mdast'
import {spanOf, type Span} from './kept.js'
import type {Pieces} from './split.js'

/**
 * Siblings that read as raw text inside the HTML block a stray closing tag
 * starts. Containers whose source may hold a blank line (code, lists, block
 * quotes) and the dialect's own constructs end the run: a blank line ends the
 * HTML block, and a construct the dialect built is the dialect's.
 */
const rawTypes = new Set(['paragraph', 'heading', 'thematicBreak', 'table', 'html'])

/** The stray closing tags of one flow parent that start a line: the piece, and the line it was split from. */
export function noteStray(strays: Set<object>, html: Html, pieces: Pieces): void {
  strays.add(html)
  const piece = pieces.get(html)
  if (piece && piece.source.type === 'html' && piece.start === 0) strays.add(piece.source)
}

/**
 * Record, as spans kept as written, each line starting with a stray closing
 * tag among `items` (a flow parent's settled children) with the siblings
 * right under it, line after line.
 */
export function keepStrayLines(items: RootContent[], strays: Set<object>, kept: Span[]): void {
  for (let index = 0; index < items.length; index++) {
    if (!strays.has(items[index])) continue
    let last = index
    while (last + 1 < items.length && continues(items[last], items[last + 1])) last++
    if (last === index) continue
    const first = items[index].position
    const end = items[last].position?.end
    const span = first && end && spanOf({start: first.start, end})
    if (span) kept.push(span)
    index = last
  }
}

/** Whether `next` starts on the line right under `previous` and reads as raw text there. */
function continues(previous: RootContent, next: RootContent): boolean {
  if (!rawTypes.has(next.type)) return false
  if (next.type === 'html' && /\n[ \t]*(?:\r?\n|\r|$)/.test(next.value)) return false
  const end = previous.position?.end.line
  return end !== undefined && next.position?.start.line === end + 1
}

/**
 * Block constructs among the children of one flow parent (root, block
 * quote, list item, hint block, ...): once `split.ts` has split the block
 * tags out of paragraphs and lines of tags, open and close tags are paired
 * with a stack, and a pair is closed into the node its construct's entry of
 * the pairing table builds (hint blocks, details, attachment groups,
 * diagrams, videos). What cannot be paired stays as it was, reported.
 */
import type {Html, RootContent} from 'mdast'
import {isRejection, type FlowEntry} from '../construct.js'
import {blockNames} from '../syntax/vocabulary.js'
import {append, TagStack, takeContent, type Frame} from './pairing.js'
import {pairPhrasing, type PairingContext} from './phrasing.js'
import {rejoin, type FlowItem, type Pieces} from './split.js'
import {keepStrayLines, noteStray} from './stray.js'
import {spanOf} from './kept.js'
import {entryOf, hasUnknownNode, unknownNodeProblem} from './table.js'
import {span} from './tags.js'

interface FlowFrame extends Frame {
  /** The entry that closes the frame, if a registered construct pairs its tag. */
  entry: FlowEntry | undefined
  /**
   * Whether the content so far is only what a summary may hold (see
   * `isPlain`). Kept as content comes, so that a `<summary>` closing around a
   * long content that cannot be a summary is not read through to learn it.
   */
  plain: boolean
}

/**
 * Plain content: paragraphs and lines of tags, and nodes that go back to
 * their tags when left outside their construct (see `FlowEntry.undo`).
 */
function isPlain(pairing: Pairing, node: RootContent): boolean {
  return node.type === 'html' || node.type === 'paragraph' || (pairing.undoable?.has(node) ?? false)
}

/** One pairing of a flow parent's items: the output list, the open frames, the nodes to undo. */
interface Pairing {
  out: RootContent[]
  stack: TagStack<FlowFrame>
  /** Nodes built by entries that can undo them, and the entry (made when the first is built). */
  undoable?: Map<RootContent, FlowEntry>
  /** Those of them left outside their construct: they go back to their tags when their content is taken. */
  orphans: Set<RootContent>
  /** Where the pieces of split paragraphs and lines came from (see `split.ts`). */
  pieces: Pieces
  /** Closing tags that closed nothing, and the lines they start (see `stray.ts`). */
  strays?: Set<object>
  context: PairingContext
}

/**
 * Pair the block tags of a flow parent's items into constructs, in time
 * linear in the number of items (see `pairing.ts`).
 */
export function pairFlow(items: FlowItem[], pieces: Pieces, context: PairingContext): RootContent[] {
  if (!items.some((item) => item.type === 'kbTagItem')) return items as RootContent[]
  const pairing: Pairing = {out: [], stack: new TagStack(), orphans: new Set(), pieces, context}
  const {out, stack} = pairing
  const {problems} = context

  for (const item of items) {
    if (item.type !== 'kbTagItem') {
      add(pairing, item)
      continue
    }
    const {tag, html} = item
    if (!blockNames.has(tag.name)) {
      add(pairing, html)
      continue
    }
    if (!tag.closing) {
      const frame: FlowFrame = {
        tag,
        open: html,
        start: out.length,
        plain: true,
        entry: entryOf(context.table.flow, tag)
      }
      out.push(html)
      // `<video src=x />`: an empty construct in one tag.
      if (tag.selfClosing) build(pairing, frame, undefined)
      else stack.push(frame)
      continue
    }
    if (!stack.has(tag.name)) {
      problems.push({
        reason: `Stray closing tag \`</${tag.name}>\``,
        ruleId: 'kb-stray-closing-tag',
        place: html.position
      })
      noteStray((pairing.strays ??= new Set()), html, pieces)
      add(pairing, html)
      continue
    }
    let frame = stack.pop() as FlowFrame
    while (frame.tag.name !== tag.name) {
      unclosed(pairing, frame)
      frame = stack.pop() as FlowFrame
    }
    build(pairing, frame, html)
  }
  for (let frame = stack.pop(); frame; frame = stack.pop()) unclosed(pairing, frame)
  return settle(pairing, out)
}

/** Add a node to the output, as content of the innermost open frame. */
function add(pairing: Pairing, node: RootContent): void {
  pairing.out.push(node)
  const top = pairing.stack.top
  if (top && !isPlain(pairing, node)) top.plain = false
}

/** The reason of an unclosed frame's problem, by tag name: made once per name, not once per frame (a line may leave thousands open). */
const unclosedReasons = new Map<string, string>()

function unclosedReason(name: string): string {
  let reason = unclosedReasons.get(name)
  if (reason === undefined) unclosedReasons.set(name, (reason = `Unclosed \`<${name}>\``))
  return reason
}

/** A frame left open: its tag and content stay where they are, reported. */
function unclosed(pairing: Pairing, frame: FlowFrame): void {
  pairing.context.problems.push({
    reason: unclosedReason(frame.tag.name),
    ruleId: 'kb-unclosed-block',
    place: frame.open.position
  })
  const first = pairing.out[frame.start + 1]
  if (first && pairing.undoable?.has(first)) pairing.orphans.add(first)
  stayed(pairing, frame)
}

/** A frame's content stayed in place: it is now content of the frame around it. */
function stayed({stack}: Pairing, frame: FlowFrame): void {
  const parent = stack.top
  if (parent && !frame.plain) parent.plain = false
}

/**
 * `items`, content settled: the pieces of a paragraph left unpaired joined
 * back, the lines a stray closing tag starts kept as written, the summaries
 * of unclosed details back to their tags around a paragraph.
 */
function settle({orphans, pieces, undoable, strays, context}: Pairing, content: RootContent[]): RootContent[] {
  const items = rejoin(content, pieces)
  if (strays) keepStrayLines(items, strays, context.kept)
  if (orphans.size === 0) return items
  const result: RootContent[] = []
  for (const item of items) {
    const entry = orphans.has(item) ? undoable?.get(item) : undefined
    if (entry?.undo) {
      append(result, entry.undo(item))
    } else result.push(item)
  }
  return result
}

/** Close a frame into its construct (by the table's entry), or keep its tags and content, reported. */
function build(pairing: Pairing, frame: FlowFrame, close: Html | undefined): void {
  const {out, stack} = pairing
  const {problems} = pairing.context
  const keep = (reason: string, ruleId: string): void => {
    if (reason) problems.push({reason, ruleId, place: frame.open.position})
    if (close) out.push(close)
    stayed(pairing, frame)
  }
  const {tag, entry} = frame
  if (!entry && hasUnknownNode(tag)) {
    problems.push(unknownNodeProblem(tag, frame.open.position))
    return keep('', '')
  }
  if (!entry) {
    // A construct the processor does not register: kept as written (see `kept.ts`).
    const written = close && spanOf(span(frame.open, close))
    if (written) pairing.context.kept.push(written)
    return keep('', '')
  }
  const parent = stack.top
  let taken: RootContent[] | undefined
  const built = entry.close({
    tag,
    open: frame.open,
    output: out,
    from: frame.start + 1,
    plain: frame.plain,
    parent: parent?.tag,
    first: parent !== undefined && parent.start + 1 === frame.start,
    problems,
    take: () => (taken ??= settle(pairing, takeContent(out, frame))),
    pairPhrasing: (children) => pairPhrasing(children, pairing.context)
  })
  if (isRejection(built)) return keep(built.reject, built.ruleId)
  if (!taken) takeContent(out, frame)
  const position = span(frame.open, close)
  if (position) built.position = position
  if (entry.undo) (pairing.undoable ??= new Map()).set(built, entry)
  add(pairing, built)
}

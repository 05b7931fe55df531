/**
 * Pairs the dialect's inline tags among the children of one phrasing parent
 * into the nodes their constructs' entries of the pairing table build:
 * containers of a pair of tags (`<u>`, `<mark>`, `<a data-node=…>`) and
 * leaves of one tag (a self-closing anchor, a sized image). A tag that
 * cannot be paired stays an `html` node (no text is ever dropped) and is
 * reported.
 */
import type {Html, PhrasingContent} from 'mdast'
import {isRejection, type PhrasingEntry} from '../construct.js'
import type {KbTag} from '../syntax/tag.js'
import {inlinePairNames, isDialectTag} from '../syntax/vocabulary.js'
import {TagStack, takeContent, type Frame} from './pairing.js'
import type {KbProblem} from './problems.js'
import {spanOf, type Span} from './kept.js'
import {entryOf, hasUnknownNode, unknownNodeProblem, type PairingTable} from './table.js'
import {dialectTagOf, span, tagOf} from './tags.js'

/** What a pairing runs with: the processor's table, and the lists its problems and kept spans go to. */
export interface PairingContext {
  table: PairingTable
  problems: KbProblem[]
  /** Pairs of constructs the processor does not register (see `kept.ts`). */
  kept: Span[]
}

interface PhrasingFrame extends Frame {
  /** The entry that closes the frame; none for plain HTML `<a href>` and tags no registered construct pairs (kept as written, silently). */
  entry: PhrasingEntry | undefined
  /** A dialect tag whose construct the processor does not register: its pair is kept as written. */
  unregistered: boolean
}

/**
 * Replace the children of a phrasing parent with paired dialect nodes, in
 * time linear in the number of children (see `pairing.ts`).
 */
export function pairPhrasing(children: PhrasingContent[], context: PairingContext): PhrasingContent[] {
  if (!children.some((child) => child.type === 'html')) return children
  const {problems} = context
  const out: PhrasingContent[] = []
  const stack = new TagStack<PhrasingFrame>()

  for (const child of children) {
    const tag = child.type === 'html' ? tagOf(child) : undefined
    if (!tag || child.type !== 'html') {
      out.push(child)
      continue
    }
    const html = child
    if (tag.closing && inlinePairNames.has(tag.name)) {
      if (!stack.has(tag.name)) {
        if (dialectTagOf(html))
          problems.push({
            reason: `Stray closing tag \`</${tag.name}>\``,
            ruleId: 'kb-stray-closing-tag',
            place: html.position
          })
        out.push(html)
        continue
      }
      let frame = stack.pop() as PhrasingFrame
      while (frame.tag.name !== tag.name) {
        unclosed(frame, out, problems)
        frame = stack.pop() as PhrasingFrame
      }
      build(frame, html, out, context)
      continue
    }
    const entry = tag.closing || !isDialectTag(tag) ? undefined : entryOf(context.table.phrasing, tag)
    const leaf = entry?.leaf?.(tag, html, problems)
    if (leaf) out.push(leaf)
    else if (inlinePairNames.has(tag.name) && !tag.closing && !tag.selfClosing)
      open(tag, html, entry, out, stack, problems)
    else out.push(html)
  }

  for (let frame = stack.pop(); frame; frame = stack.pop()) unclosed(frame, out, problems)
  return out
}

/** Open a frame for a container's tag; a `data-node` value the dialect does not have is reported, and the tag kept as HTML. */
function open(
  tag: KbTag,
  html: Html,
  entry: PhrasingEntry | undefined,
  out: PhrasingContent[],
  stack: TagStack<PhrasingFrame>,
  problems: KbProblem[]
): void {
  const unknown = 'data-node' in tag.attributes && hasUnknownNode(tag)
  if (unknown) problems.push(unknownNodeProblem(tag, html.position))
  const unregistered = !entry && !unknown && isDialectTag(tag)
  stack.push({tag, open: html, start: out.length, entry: entry?.close ? entry : undefined, unregistered})
  out.push(html)
}

/**
 * A frame left open: its tag and content stay where they are, reported,
 * unless its entry makes a node of the open tag alone (an anchor holds
 * nothing: `<a data-node="anchorLink" data-id="x">` left open is the anchor).
 */
function unclosed(frame: PhrasingFrame, out: PhrasingContent[], problems: KbProblem[]): void {
  const {entry} = frame
  const node = entry?.unclosed?.(frame.tag, frame.open, problems)
  if (node) out[frame.start] = node
  else if (entry)
    problems.push({reason: `Unclosed \`<${frame.tag.name}>\``, ruleId: 'kb-unclosed-tag', place: frame.open.position})
}

/** Close a frame: the construct its entry builds, or its tags and content as they were. */
function build(frame: PhrasingFrame, close: Html, out: PhrasingContent[], {problems, kept}: PairingContext): void {
  const {entry} = frame
  let taken: PhrasingContent[] | undefined
  const built = entry?.close?.({
    tag: frame.tag,
    open: frame.open,
    output: out,
    from: frame.start + 1,
    problems,
    take: () => (taken ??= takeContent(out, frame))
  })
  if (!built || isRejection(built)) {
    const written = frame.unregistered ? spanOf(span(frame.open, close)) : undefined
    if (written) kept.push(written)
    if (built?.reject) problems.push({reason: built.reject, ruleId: built.ruleId, place: frame.open.position})
    out.push(close)
    return
  }
  if (!taken) takeContent(out, frame)
  const position = span(frame.open, close)
  if (position && !built.position) built.position = position
  // An attachment is phrasing here, until its group takes it (see `PhrasingNode`).
  out.push(built as PhrasingContent)
}

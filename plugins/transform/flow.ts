/**
 * Block constructs among the children of one flow parent (root, block
 * quote, list item, hint block, ...): once `split.ts` has split the block
 * tags out of paragraphs and lines of tags, open and close tags are paired
 * with a stack into hint blocks, details, attachment groups, diagrams and
 * videos. What cannot be paired stays as it was, reported.
 */
import type {Html, Nodes, Paragraph, PhrasingContent, RootContent} from 'mdast'
import type {Attachment, DetailsSummary} from '../types.js'
import type {Point} from 'unist'
import type {KbProblem} from './problems.js'
import {append, TagStack, takeContent, type Frame} from './pairing.js'
import {pairPhrasing} from './phrasing.js'
import {rejoin, type FlowItem, type Pieces} from './split.js'
import {isColor, mergeText, sizeAttribute, span} from './tags.js'

interface FlowFrame extends Frame {
  /**
   * Whether the content so far is only what a summary may hold (see
   * `isPlain`). Kept as content comes, so that a `<summary>` closing around a
   * long content that cannot be a summary is not read through to learn it.
   */
  plain: boolean
}

const pairedNames = new Set(['div', 'details', 'summary', 'iframe', 'video'])

/**
 * What a summary may hold: paragraphs and lines of tags. The summary of a
 * `<details>` left unclosed counts too: it goes back to its tags around a
 * paragraph (see `settle`).
 */
function isPlain(node: RootContent): boolean {
  return node.type === 'html' || node.type === 'paragraph' || node.type === 'detailsSummary'
}

/** One pairing of a flow parent's items: the output list, the open frames, the summaries to undo. */
interface Pairing {
  out: RootContent[]
  stack: TagStack<FlowFrame>
  /** Summaries of `<details>` left unclosed: they go back to their tags when their content is taken. */
  orphans: Set<DetailsSummary>
  /** Where the pieces of split paragraphs and lines came from (see `split.ts`). */
  pieces: Pieces
  problems: KbProblem[]
}

/**
 * Pair the block tags of a flow parent's items into constructs, in time
 * linear in the number of items (see `pairing.ts`).
 */
export function pairFlow(items: FlowItem[], pieces: Pieces, problems: KbProblem[]): RootContent[] {
  if (!items.some((item) => item.type === 'kbTagItem')) return items as RootContent[]
  const pairing: Pairing = {out: [], stack: new TagStack(), orphans: new Set(), pieces, problems}
  const {out, stack} = pairing

  for (const item of items) {
    if (item.type !== 'kbTagItem') {
      add(pairing, item)
      continue
    }
    const {tag, html} = item
    if (!pairedNames.has(tag.name)) {
      add(pairing, html)
      continue
    }
    if (!tag.closing) {
      const frame: FlowFrame = {tag, open: html, start: out.length, plain: true}
      out.push(html)
      // `<video src=x />`: an empty construct in one tag.
      if (tag.selfClosing) build(pairing, frame, undefined)
      else stack.push(frame)
      continue
    }
    if (!stack.has(tag.name)) {
      problems.push({reason: `Stray closing tag \`</${tag.name}>\``, ruleId: 'kb-stray-closing-tag', place: html.position})
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
function add({out, stack}: Pairing, node: RootContent): void {
  out.push(node)
  const top = stack.top
  if (top && !isPlain(node)) top.plain = false
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
  pairing.problems.push({reason: unclosedReason(frame.tag.name), ruleId: 'kb-unclosed-block', place: frame.open.position})
  const summary = pairing.out[frame.start + 1]
  if (frame.tag.name === 'details' && summary && summary.type === 'detailsSummary') pairing.orphans.add(summary)
  stayed(pairing, frame)
}

/** A frame's content stayed in place: it is now content of the frame around it. */
function stayed({stack}: Pairing, frame: FlowFrame): void {
  const parent = stack.top
  if (parent && !frame.plain) parent.plain = false
}

/**
 * `items`, content settled: the pieces of a paragraph left unpaired joined
 * back, the summaries of unclosed details back to their tags around a
 * paragraph.
 */
function settle({orphans, pieces}: Pairing, content: RootContent[]): RootContent[] {
  const items = rejoin(content, pieces)
  if (orphans.size === 0) return items
  const result: RootContent[] = []
  for (const item of items) {
    if (item.type === 'detailsSummary' && orphans.has(item)) {
      result.push(...unbuiltSummary(item))
    } else result.push(item)
  }
  return result
}

/**
 * A summary of an unclosed details as its tags around a paragraph, each
 * placed where it was written (the summary spans from its `<summary>` to
 * its `</summary>`), so that messages about them name their line.
 */
function unbuiltSummary(summary: DetailsSummary): RootContent[] {
  const position = summary.position
  const at = (point: Point, shift: number): Point => ({line: point.line, column: point.column + shift, offset: point.offset === undefined ? undefined : point.offset + shift})
  const open: Html = {type: 'html', value: '<summary>'}
  const close: Html = {type: 'html', value: '</summary>'}
  const paragraph: RootContent = {type: 'paragraph', children: summary.children}
  if (position) {
    open.position = {start: position.start, end: at(position.start, 9)}
    close.position = {start: at(position.end, -10), end: position.end}
    const first = summary.children[0]
    const last = summary.children[summary.children.length - 1]
    if (first?.position && last?.position) paragraph.position = {start: first.position.start, end: last.position.end}
  }
  return [open, paragraph, close]
}

/** Close a frame into its construct, or keep its tags and content, reported. */
function build(pairing: Pairing, frame: FlowFrame, close: Html | undefined): void {
  const {out, stack, problems} = pairing
  const {tag} = frame
  const keep = (reason: string, ruleId: string): void => {
    problems.push({reason, ruleId, place: frame.open.position})
    if (close) out.push(close)
    stayed(pairing, frame)
  }
  const position = span(frame.open, close)
  const construct = (make: (children: RootContent[]) => object): void => {
    const node = make(settle(pairing, takeContent(out, frame))) as RootContent
    add(pairing, position ? Object.assign(node, {position}) : node)
  }
  const empty = out.length === frame.start + 1
  const node = tag.attributes['data-node']

  switch (tag.name) {
    case 'div': {
      if (node === 'hintBlock') {
        const color = tag.attributes['data-color']
        if (!isColor(color)) return keep(`Invalid colour \`${color ?? ''}\` (expected one of the 11 tokens)`, 'kb-invalid-color')
        return construct((children) => ({type: 'hintBlock', color, children}))
      }
      if (node === 'attachmentsGroup') {
        const attachments = collectAttachments(out, frame.start + 1)
        if (!attachments) return keep('An attachments group holds only attachments', 'kb-invalid-content')
        return construct(() => ({type: 'attachmentsGroup', children: attachments}))
      }
      return keep(`Unknown \`data-node\` value \`${node ?? ''}\``, 'kb-unknown-node')
    }
    case 'details':
      return construct((children) => ({type: 'details', children}))
    case 'summary': {
      const parent = stack.top
      if (!parent || parent.tag.name !== 'details' || parent.start + 1 !== frame.start || !frame.plain) {
        return keep('`<summary>` belongs first in `<details>`', 'kb-misplaced-summary')
      }
      return construct((children) => summaryOf(children, problems))
    }
    case 'iframe': {
      const url = tag.attributes.src
      if (node !== 'drawio') return keep(`Unknown \`data-node\` value \`${node ?? ''}\` on \`<iframe>\``, 'kb-unknown-node')
      if (url === undefined || !empty) return keep('A diagram needs `src` and no content', 'kb-invalid-content')
      const width = sizeAttribute(tag, 'width', frame.open.position, problems)
      return construct(() => (width === undefined ? {type: 'drawio', url} : {type: 'drawio', url, width}))
    }
    default: {
      // video
      const url = tag.attributes.src
      if (url === undefined || !empty) return keep('A video needs `src` and no content', 'kb-invalid-content')
      return construct(() => ({type: 'video', url}))
    }
  }
}

/**
 * The summary of a `<summary>` frame, whose content is plain (`isPlain`):
 * its paragraphs, and its lines made only of inline tags
 * (`<summary><img …></summary>` is one line of tags, split as flow): each
 * such line is paired as phrasing, as it would be in a paragraph.
 */
function summaryOf(children: RootContent[], problems: KbProblem[]): DetailsSummary {
  const phrasing: PhrasingContent[] = []
  let line: Html[] = []
  const addLine = (nodes: PhrasingContent[]) => {
    if (phrasing.length > 0) phrasing.push({type: 'text', value: '\n'})
    append(phrasing, nodes)
  }
  const endLine = () => {
    if (line.length > 0) addLine(pairPhrasing(line, problems))
    line = []
  }
  for (const child of children) {
    if (child.type === 'html') {
      const previous = line[line.length - 1]
      if (previous && previous.position?.start.line !== child.position?.start.line) endLine()
      line.push(child)
      continue
    }
    endLine()
    addLine((child as Paragraph).children)
  }
  endLine()
  return {type: 'detailsSummary', children: mergeText(phrasing)}
}

/** The attachments of an attachments group whose content starts at `from` in `out`, if it holds only attachments. */
function collectAttachments(out: RootContent[], from: number): Attachment[] | undefined {
  const attachments: Attachment[] = []
  for (let index = from; index < out.length; index++) {
    const child = out[index]
    if (child.type !== 'paragraph') return undefined
    for (const inline of child.children as Nodes[]) {
      if (inline.type === 'attachment') attachments.push(inline)
      else if (inline.type !== 'text' || inline.value.trim() !== '') return undefined
    }
  }
  return attachments
}

/**
 * Block constructs among the children of one flow parent (root, block
 * quote, list item, hint block, ...): block tags written inside a paragraph
 * (tight blocks, content on the tag's line) are split out of it, lines of
 * tags are split into single tags, and then open and close tags are paired
 * with a stack into hint blocks, details, attachment groups, diagrams and
 * videos. What cannot be paired stays as it was, reported.
 */
import type {Html, Nodes, Paragraph, PhrasingContent, RootContent} from 'mdast'
import type {Position} from 'unist'
import type {Attachment, DetailsSummary} from '../types.js'
import {isBlockTag, isDialectTag, readTagLine, type KbTag} from '../syntax/tag.js'
import type {KbProblem} from './problems.js'
import {pairPhrasing} from './phrasing.js'
import {dialectTagOf, isColor, mergeText, sizeAttribute, span} from './tags.js'

/** A flow item: a node, or a tag waiting to be paired. */
export type FlowItem = RootContent | {type: 'kbTagItem'; tag: KbTag; html: Html}

/** Split block tags out of paragraphs and lines of tags into single tags. */
export function splitFlow(children: RootContent[]): FlowItem[] {
  const items: FlowItem[] = []
  for (const child of children) {
    if (child.type === 'paragraph' && child.children.some((c) => c.type === 'html' && isBlockHtml(c))) {
      splitParagraph(child, items)
    } else if (child.type === 'html' && child.value.charCodeAt(0) === 60) {
      splitTagLine(child, items)
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

function splitTagLine(html: Html, items: FlowItem[]): void {
  const tags = readTagLine(html.value)
  if (!tags || !tags.some(({tag}) => isBlockTag(tag)) || !tags.every(({tag}) => isDialectTag(tag))) {
    items.push(html)
    return
  }
  for (const {tag, start, end} of tags) {
    const piece: Html = {type: 'html', value: html.value.slice(start, end)}
    if (html.position) piece.position = shift(html.position, start, end)
    items.push({type: 'kbTagItem', tag, html: piece})
  }
}

function shift(position: Position, start: number, end: number): Position {
  const {line, column, offset} = position.start
  return {
    start: {line, column: column + start, offset: offset === undefined ? undefined : offset + start},
    end: {line, column: column + end, offset: offset === undefined ? undefined : offset + end}
  }
}

function splitParagraph(paragraph: Paragraph, items: FlowItem[]): void {
  let run: PhrasingContent[] = []
  const flush = () => {
    const children = trimRun(run)
    run = []
    if (children.length === 0) return
    const node: Paragraph = {type: 'paragraph', children}
    const position = span(children[0], children[children.length - 1])
    if (position) node.position = position
    items.push(node)
  }
  for (const child of paragraph.children) {
    if (child.type === 'html' && isBlockHtml(child)) {
      flush()
      items.push({type: 'kbTagItem', tag: dialectTagOf(child) as KbTag, html: child})
    } else {
      run.push(child)
    }
  }
  flush()
}

/** Drop the line endings and spaces a split left at the edges of a run. */
function trimRun(run: PhrasingContent[]): PhrasingContent[] {
  const children = [...run]
  const first = children[0]
  if (first && first.type === 'text') {
    const value = first.value.replace(/^[ \t]*(?:\r?\n|\r)?[ \t]*/, '')
    if (value) children[0] = {...first, value}
    else children.shift()
  }
  const last = children[children.length - 1]
  if (last && last.type === 'text') {
    const value = last.value.replace(/[ \t]*(?:\r?\n|\r)?[ \t]*$/, '')
    if (value) children[children.length - 1] = {...last, value}
    else children.pop()
  }
  return children
}

interface Frame {
  tag: KbTag
  open: Html
  children: FlowItem[]
}

const pairedNames = new Set(['div', 'details', 'summary', 'iframe', 'video'])

/** Pair the block tags of a flow parent's items into constructs. */
export function pairFlow(items: FlowItem[], problems: KbProblem[]): RootContent[] {
  if (!items.some((item) => item.type === 'kbTagItem')) return items as RootContent[]
  const root: FlowItem[] = []
  const stack: Frame[] = []
  const out = () => (stack.length > 0 ? stack[stack.length - 1].children : root)

  for (const item of items) {
    if (item.type !== 'kbTagItem') {
      out().push(item)
      continue
    }
    const {tag, html} = item
    if (!pairedNames.has(tag.name)) {
      out().push(html)
      continue
    }
    if (!tag.closing && !tag.selfClosing) {
      stack.push({tag, open: html, children: []})
      continue
    }
    if (!tag.closing) {
      // `<video src=x />`: an empty construct in one tag.
      const frame: Frame = {tag, open: html, children: []}
      out().push(...build(frame, undefined, stack[stack.length - 1], problems))
      continue
    }
    let index = stack.length - 1
    while (index >= 0 && stack[index].tag.name !== tag.name) index--
    if (index === -1) {
      problems.push({reason: `Stray closing tag \`</${tag.name}>\``, ruleId: 'kb-stray-closing-tag', place: html.position})
      out().push(html)
      continue
    }
    while (stack.length - 1 > index) unclosed(stack.pop() as Frame, out, problems)
    const frame = stack.pop() as Frame
    out().push(...build(frame, html, stack[stack.length - 1], problems))
  }
  while (stack.length > 0) unclosed(stack.pop() as Frame, out, problems)
  return root.map((item) => (item.type === 'kbTagItem' ? item.html : item))
}

function unclosed(frame: Frame, out: () => FlowItem[], problems: KbProblem[]): void {
  problems.push({reason: `Unclosed \`<${frame.tag.name}>\``, ruleId: 'kb-unclosed-block', place: frame.open.position})
  out().push(frame.open, ...frame.children.flatMap(unsummarise))
}

/** A summary outside a (closed) details goes back to its tags around a paragraph. */
function unsummarise(item: FlowItem): FlowItem[] {
  if (item.type !== 'detailsSummary') return [item]
  const paragraph: Paragraph = {type: 'paragraph', children: item.children}
  return [{type: 'html', value: '<summary>'}, paragraph, {type: 'html', value: '</summary>'}]
}

/** Close a frame into its construct, or keep its tags and content, reported. */
function build(frame: Frame, close: Html | undefined, parent: Frame | undefined, problems: KbProblem[]): FlowItem[] {
  const {tag} = frame
  const children = frame.children.map((item) => (item.type === 'kbTagItem' ? item.html : item))
  const keep = (reason: string, ruleId: string): FlowItem[] => {
    problems.push({reason, ruleId, place: frame.open.position})
    return close ? [frame.open, ...children, close] : [frame.open, ...children]
  }
  const position = span(frame.open, close)
  const at = <T extends object>(node: T): T => (position ? Object.assign(node, {position}) : node)
  const node = tag.attributes['data-node']

  switch (tag.name) {
    case 'div': {
      if (node === 'hintBlock') {
        const color = tag.attributes['data-color']
        if (!isColor(color)) return keep(`Invalid colour \`${color ?? ''}\` (expected one of the 11 tokens)`, 'kb-invalid-color')
        return [at({type: 'hintBlock', color, children} as RootContent)]
      }
      if (node === 'attachmentsGroup') {
        const attachments = collectAttachments(children)
        if (!attachments) return keep('An attachments group holds only attachments', 'kb-invalid-content')
        return [at({type: 'attachmentsGroup', children: attachments} as RootContent)]
      }
      return keep(`Unknown \`data-node\` value \`${node ?? ''}\``, 'kb-unknown-node')
    }
    case 'details':
      return [at({type: 'details', children} as RootContent)]
    case 'summary': {
      const summary = summaryOf(children, problems)
      if (!parent || parent.tag.name !== 'details' || parent.children.length > 0 || !summary) {
        return keep('`<summary>` belongs first in `<details>`', 'kb-misplaced-summary')
      }
      return [at(summary as unknown as RootContent)]
    }
    case 'iframe': {
      const url = tag.attributes.src
      if (node !== 'drawio') return keep(`Unknown \`data-node\` value \`${node ?? ''}\` on \`<iframe>\``, 'kb-unknown-node')
      if (url === undefined || children.length > 0) return keep('A diagram needs `src` and no content', 'kb-invalid-content')
      const width = sizeAttribute(tag, 'width', frame.open.position, problems)
      return [at((width === undefined ? {type: 'drawio', url} : {type: 'drawio', url, width}) as RootContent)]
    }
    default: {
      // video
      const url = tag.attributes.src
      if (url === undefined || children.length > 0) return keep('A video needs `src` and no content', 'kb-invalid-content')
      return [at({type: 'video', url} as RootContent)]
    }
  }
}

/**
 * The summary of a `<summary>` frame: its paragraphs, and its lines made only
 * of inline tags (`<summary><img …></summary>` is one line of tags, split as
 * flow): each such line is paired as phrasing, as it would be in a paragraph.
 */
function summaryOf(children: RootContent[], problems: KbProblem[]): DetailsSummary | undefined {
  const phrasing: PhrasingContent[] = []
  let line: Html[] = []
  const addLine = (nodes: PhrasingContent[]) => {
    if (phrasing.length > 0) phrasing.push({type: 'text', value: '\n'})
    phrasing.push(...nodes)
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
    if (child.type !== 'paragraph') return undefined
    addLine(child.children)
  }
  endLine()
  return {type: 'detailsSummary', children: mergeText(phrasing)}
}

function collectAttachments(children: RootContent[]): Attachment[] | undefined {
  const attachments: Attachment[] = []
  for (const child of children) {
    if (child.type !== 'paragraph') return undefined
    for (const inline of child.children as Nodes[]) {
      if (inline.type === 'attachment') attachments.push(inline)
      else if (inline.type !== 'text' || inline.value.trim() !== '') return undefined
    }
  }
  return attachments
}

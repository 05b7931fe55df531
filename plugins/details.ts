/** Expanding block `<details><summary>…</summary>…</details>`. */
import type {Html, Paragraph, PhrasingContent, RootContent} from 'mdast'
import type {Options} from 'mdast-util-to-markdown'
import type {Point} from 'unist'
import {reject, type FlowClose, type FlowEntry, type KbConstruct} from './construct.js'
import {constructPlugin} from './register.js'
import {wrapFlow, wrapPhrasing, type KbHandle} from './tag-writer.js'
import {append} from './transform/pairing.js'
import {mergeText} from './transform/tags.js'
import type {Details, DetailsSummary} from './types.js'

/** `<details>`: any block content, a summary first if it has one. */
const detailsEntry: FlowEntry = {
  tag: 'details',
  close: ({take}) => ({type: 'details', children: take()}) as Details
}

/**
 * `<summary>`: only first in a `<details>`, holding plain content. Left
 * outside a details that stays unclosed, it goes back to its tags.
 */
const summaryEntry: FlowEntry = {
  tag: 'summary',
  close(context) {
    if (context.parent?.name !== 'details' || !context.first || !context.plain) {
      return reject('`<summary>` belongs first in `<details>`', 'kb-misplaced-summary')
    }
    return summaryOf(context.take(), context)
  },
  undo: (node) => unbuiltSummary(node as DetailsSummary)
}

/**
 * The summary of a `<summary>` frame, whose content is plain: its
 * paragraphs, and its lines made only of inline tags
 * (`<summary><img …></summary>` is one line of tags, split as flow): each
 * such line is paired as phrasing, as it would be in a paragraph.
 */
function summaryOf(children: RootContent[], context: FlowClose): DetailsSummary {
  const phrasing: PhrasingContent[] = []
  let line: Html[] = []
  const addLine = (nodes: PhrasingContent[]) => {
    if (phrasing.length > 0) phrasing.push({type: 'text', value: '\n'})
    append(phrasing, nodes)
  }
  const endLine = () => {
    if (line.length > 0) addLine(context.pairPhrasing(line))
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

/**
 * A summary of an unclosed details as its tags around a paragraph, each
 * placed where it was written (the summary spans from its `<summary>` to
 * its `</summary>`), so that messages about them name their line.
 */
function unbuiltSummary(summary: DetailsSummary): RootContent[] {
  const position = summary.position
  const at = (point: Point, shift: number): Point => ({
    line: point.line,
    column: point.column + shift,
    offset: point.offset === undefined ? undefined : point.offset + shift
  })
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

const details: KbHandle = (node: Details, _, state, info) => {
  const [first, ...rest] = node.children
  if (first && first.type === 'detailsSummary') {
    const summary = detailsSummary(first, node, state, info)
    return wrapFlow({type: 'details', children: rest} as Details, state, info, '<details>\n' + summary, '</details>')
  }
  return wrapFlow(node, state, info, '<details>', '</details>')
}

/** The summary is read back as a paragraph, so it is escaped as one. */
const detailsSummary: KbHandle = (node: DetailsSummary, _, state, info) => {
  const exit = state.enter('paragraph')
  const exitPhrasing = state.enter('phrasing')
  const value = wrapPhrasing(node, state, info, '<summary>', '</summary>')
  exitPhrasing()
  exit()
  return value
}

/** to-markdown extension for `details` and `detailsSummary`. */
export function detailsToMarkdown(): Options {
  return {handlers: {details, detailsSummary}}
}

/** The details construct: how its tags (`<details>`, `<summary>`) are paired and how it is written. */
export const detailsConstruct: KbConstruct = {
  name: 'details',
  flow: [detailsEntry, summaryEntry],
  toMarkdown: detailsToMarkdown()
}

/** remark plugin: the dialect's expanding blocks. */
export const remarkKbDetails = constructPlugin(detailsConstruct)

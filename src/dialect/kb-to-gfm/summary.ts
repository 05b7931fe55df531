/**
 * The summary of an expanding block, for GitHub. `<details>` opens an HTML
 * block there, which runs to the next blank line: the `<summary>` line is
 * inside it and GitHub shows Markdown in it literally (`**b**`, `snake\_case`
 * with its backslash). So the summary is written as HTML, which GitHub
 * renders and `gfmToKb` reads back to the same nodes.
 */
import type {Element, ElementContent} from 'hast'
import {toHtml} from 'hast-util-to-html'
import type {Image, Parents} from 'mdast'
import {toHast, type Handlers, type State} from 'mdast-util-to-hast'
import type {Handle} from 'mdast-util-to-markdown'
import type {AnchorLink, Details, DetailsSummary, Mark, Underline} from '../../../plugins/types.js'
import {wrapFlow} from '../../../plugins/tag-writer.js'

function element(
  state: State,
  node: Parents | AnchorLink | Image,
  tagName: string,
  properties: Element['properties'],
  children: ElementContent[] = []
): Element {
  const result: Element = {type: 'element', tagName, properties, children}
  state.patch(node as never, result)
  return result
}

/** The dialect's text-level nodes as the HTML the dialect writes for them. */
const handlers: Handlers = {
  underline: (state: State, node: Underline) => element(state, node, 'u', {}, state.all(node)),
  mark: (state: State, node: Mark) => element(state, node, 'mark', {dataColor: node.color}, state.all(node)),
  anchorLink: (state: State, node: AnchorLink) =>
    element(state, node, 'a', {dataNode: 'anchorLink', dataId: node.identifier}),
  image: (state: State, node: Image) =>
    element(state, node, 'img', {src: node.url, alt: node.alt ?? '', width: node.width, height: node.height}),
  // Raw HTML stays as written, as in the Markdown it came from.
  html: (_: State, node: {value: string}) => ({type: 'raw', value: node.value}) as never
}

/** The HTML of a summary's content. */
export function summaryHtml(node: DetailsSummary): string {
  const paragraph = toHast(
    {type: 'paragraph', children: node.children},
    {handlers, allowDangerousHtml: true}
  ) as Element
  return toHtml(paragraph.children, {allowDangerousHtml: true})
}

/** to-markdown handler of `details`: as the dialect writes it, its summary's content as HTML. */
export const details: Handle = (node: Details, _, state, info) => {
  const [first, ...rest] = node.children
  if (first?.type !== 'detailsSummary') return wrapFlow(node, state, info, '<details>', '</details>')
  const summary = `<summary>${summaryHtml(first).replace(/\n/g, ' ')}</summary>`
  return wrapFlow({type: 'details', children: rest} as Details, state, info, '<details>\n' + summary, '</details>')
}

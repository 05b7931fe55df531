/**
 * Text-level elements the dialect has beyond mdast: `<a href>` (a link),
 * `<a id>` / `<a name>` (the dialect's anchor), the dialect's own
 * `<a data-node=…>` written inside foreign HTML, `<u>` (underline) and
 * `<mark>` (highlight).
 */
import type {Element} from 'hast'
import type {Handle, State} from 'hast-util-to-mdast'
import type {InlineCode, Link, Nodes, PhrasingContent} from 'mdast'
import {colorTokens, type AnchorLink, type ArticleLink, type Mark, type Underline} from '../../../../plugins/types.js'
import {isColor, textOf} from '../../../../plugins/transform/tags.js'
import {attribute} from './attributes.js'
import {markPhrasing, warnAt, type Conversion} from './context.js'
import {slotTag} from './fragment.js'

function anchor(state: State, element: Element, identifier: string): AnchorLink {
  const node: AnchorLink = {type: 'anchorLink', identifier}
  state.patch(element, node)
  return markPhrasing(node)
}

/** `<a>`: link, anchor (before the text it marks), article or topic link (a script URL is disarmed later, with the other links: `script-urls.ts`). */
export const linkHandler: Handle = (state: State, element: Element) => {
  const children = state.all(element) as PhrasingContent[]
  const kind = attribute(element, 'dataNode')
  if (kind === 'anchorLink') {
    const id = attribute(element, 'dataId')
    return id === undefined ? children : [anchor(state, element, id), ...children]
  }
  if (kind === 'articleLink') {
    const articleId = attribute(element, 'dataArticleId')
    const topicId = attribute(element, 'dataTopicId')
    const link: ArticleLink =
      articleId !== undefined ? {type: 'articleLink', articleId, children} : {type: 'articleLink', topicId, children}
    if (articleId === undefined && topicId === undefined) return children
    state.patch(element, link)
    return markPhrasing(link)
  }
  const id = attribute(element, 'id') ?? attribute(element, 'name')
  const href = attribute(element, 'href')
  const nodes: Nodes[] = []
  if (id !== undefined) nodes.push(anchor(state, element, id))
  if (href === undefined) return [...nodes, ...children]
  const link: Link = {type: 'link', url: href, title: attribute(element, 'title') ?? null, children}
  state.patch(element, link)
  return [...nodes, link]
}

/** `<u>`: the dialect's underline. */
export const underlineHandler: Handle = (state: State, element: Element) => {
  const node: Underline = {type: 'underline', children: state.all(element) as PhrasingContent[]}
  state.patch(element, node)
  return markPhrasing(node)
}

/** `<mark>`: the dialect's highlight, in its `data-color` when that is a colour token, else yellow (a wrong token is reported). */
export function markHandler(conversion: Conversion): Handle {
  return (state: State, element: Element) => {
    const color = attribute(element, 'dataColor')
    if (color !== undefined && !isColor(color)) {
      warnAt(
        conversion,
        element,
        'kb-invalid-color',
        `\`data-color="${color}"\` is not one of the 11 colour tokens (${colorTokens.join(', ')}); the highlight is yellow.`
      )
    }
    const node: Mark = {
      type: 'mark',
      color: isColor(color) ? color : 'yellow',
      children: state.all(element) as PhrasingContent[]
    }
    state.patch(element, node)
    return markPhrasing(node)
  }
}

/** The text of `element`, a slot's being the text of the node it stands for. */
function textWithSlots(element: Element, conversion: Conversion): string {
  let value = ''
  const stack = [...element.children].reverse()
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === 'text') value += node.value
    else if (node.type !== 'element') continue
    else if (node.tagName === slotTag) value += textOf([conversion.slots[Number(node.properties.dataI)]!])
    else if (node.tagName === 'br') value += ' '
    else for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!)
  }
  return value
}

/** `<code>`, `<kbd>`, `<samp>`, `<var>`, `<tt>`: inline code of the element's text. */
export function inlineCodeHandler(conversion: Conversion): Handle {
  return (state: State, element: Element) => {
    const node: InlineCode = {type: 'inlineCode', value: textWithSlots(element, conversion).replace(/\s+/g, ' ')}
    state.patch(element, node)
    return node
  }
}

/**
 * Block elements the dialect has beyond mdast: hint blocks (the dialect's
 * own `<div data-node=hintBlock>`, and a `<div>` whose class names a note,
 * tip, warning... as Jekyll and many themes write them) and expanding
 * blocks (`<details>` with its `<summary>`).
 */
import type {Element, ElementContent} from 'hast'
import type {Handle, State} from 'hast-util-to-mdast'
import type {Nodes, Paragraph, PhrasingContent} from 'mdast'
import {isColor} from '../../../../plugins/transform/tags.js'
import {
  colorTokens,
  type ColorToken,
  type Details,
  type DetailsSummary,
  type HintBlock
} from '../../../../plugins/types.js'
import {admonitionColor} from '../alerts.js'
import {attribute, classes} from './attributes.js'
import {boldLine} from '../site-syntax/titles.js'
import {warnAt, type Conversion} from './context.js'
import {toBlocks} from './normalize.js'

/** A paragraph of `title` in bold: how a block's title is written in the dialect. */
export function titleParagraph(title: string): Paragraph {
  return boldLine([{type: 'text', value: title}])
}

/**
 * A hint block of `color` holding `content` (converted to flow); a title
 * (given, or a heading the block starts with) becomes its first bold line.
 */
export function hintBlock(
  state: State,
  element: Element,
  color: ColorToken,
  content: Nodes[],
  title?: string
): HintBlock {
  const children = toBlocks(state, content)
  const first = children[0]
  if (title !== undefined) children.unshift(titleParagraph(title))
  else if (first?.type === 'heading') children[0] = {...boldLine(first.children), position: first.position}
  const node: HintBlock = {type: 'hintBlock', color, children}
  state.patch(element, node)
  return node
}

/** The hint colour a `<div>`'s classes name (the last class that names one: `note warning` is a warning). */
function classColor(element: Element): ColorToken | undefined {
  let color: ColorToken | undefined
  for (const name of classes(element))
    color = admonitionColor(name.replace(/^(?:alert|admonition|callout)-/, '')) ?? color
  return color
}

/**
 * `<div>`: a hint block when it is the dialect's or its class names one;
 * otherwise its content. The dialect's own tag with a wrong colour or an
 * unknown `data-node` is reported: its author meant a construct.
 */
export function divHandler(conversion: Conversion): Handle {
  return (state: State, element: Element) => {
    const dataNode = attribute(element, 'dataNode')
    const dataColor = attribute(element, 'dataColor')
    let color = classColor(element)
    if (dataNode === 'hintBlock') {
      if (isColor(dataColor)) color = dataColor
      else {
        color ??= 'blue'
        warnAt(
          conversion,
          element,
          'kb-invalid-color',
          `\`data-color="${dataColor ?? ''}"\` is not one of the 11 colour tokens (${colorTokens.join(', ')}); the hint block is ${color}.`
        )
      }
    } else if (dataNode !== undefined) {
      warnAt(
        conversion,
        element,
        'kb-unknown-node',
        `Unknown \`data-node\` value \`${dataNode}\`; the block's content is kept without it.`
      )
    }
    const content = state.all(element)
    return color === undefined ? toBlocks(state, content) : hintBlock(state, element, color, content)
  }
}

/** `<details>`: the dialect's expanding block, its first `<summary>` the summary. */
export const detailsHandler: Handle = (state: State, element: Element) => {
  const index = element.children.findIndex((child) => child.type === 'element' && child.tagName === 'summary')
  const rest: ElementContent[] = index === -1 ? element.children : element.children.filter((_, at) => at !== index)
  const body = toBlocks(state, state.all({...element, children: rest}))
  const summaryElement = element.children[index] as Element | undefined
  let summary: DetailsSummary | undefined
  if (summaryElement) {
    summary = {type: 'detailsSummary', children: state.all(summaryElement) as PhrasingContent[]}
    state.patch(summaryElement, summary)
  }
  const node: Details = {type: 'details', children: summary ? [summary, ...body] : body}
  state.patch(element, node)
  return node
}

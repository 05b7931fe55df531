/**
 * What the component handlers share: reading a component element (its
 * name as written, its attributes) and the shapes the conversion gives a
 * component: its content as blocks under a bold label, or unwrapped.
 */
import type {Element, ElementContent} from 'hast'
import type {State} from 'hast-util-to-mdast'
import type {BlockContent, Nodes, PhrasingContent} from 'mdast'
import {attribute} from '../html/attributes.js'
import {holdsFlow} from '../html/context.js'
import {toBlocks} from '../html/normalize.js'
import {titleParagraph} from '../html/blocks.js'
import {boldLine} from '../site-syntax/titles.js'

/** The hast tag name a component is parsed as; its name as written is in the `dataKbComponent` property. */
export const componentTag = 'kbsync-component'

/** The name of the component `node` as written, or undefined when it is no component. */
export function componentName(node: ElementContent): string | undefined {
  return node.type === 'element' && node.tagName === componentTag ? attribute(node, 'dataKbComponent') : undefined
}

/** The component children of `element` named one of `names`. */
export function componentChildren(element: Element, names: ReadonlySet<string>): Element[] {
  return element.children.filter((child): child is Element => names.has(componentName(child) ?? ''))
}

/** Whether `element` was written on a line of its own (a block, like `<Step>` or `<Frame>`). */
export function isBlock(element: Element): boolean {
  return attribute(element, 'dataKbBlock') !== undefined
}

/** The converted content of `element` as blocks. */
export function flowOf(state: State, element: Element): BlockContent[] {
  return toBlocks(state, state.all(element))
}

/**
 * A component's content without it: text stays text where it was (an
 * inline component), a component on a line of its own or holding blocks
 * gives blocks, under its `label` as a bold first line when given.
 */
export function unwrapped(state: State, element: Element, label?: PhrasingContent[] | string): Nodes[] {
  const content = state.all(element) as Nodes[]
  if (label === undefined && !holdsFlow(content) && !isBlock(element)) return content
  const blocks = toBlocks(state, content)
  if (label === undefined) return blocks
  return [typeof label === 'string' ? titleParagraph(label) : boldLine(label), ...blocks]
}

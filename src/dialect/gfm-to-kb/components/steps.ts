/**
 * Steps: Starlight `<Steps>` wraps an ordered list (it only styles it);
 * Mintlify `<Steps>` holds `<Step title>` elements. Either becomes an
 * ordered list: Mintlify's steps are its items, each step's title the
 * item's first (bold) line.
 */
import type {Handle} from 'hast-util-to-mdast'
import type {List, ListItem} from 'mdast'
import {attribute} from '../html/attributes.js'
import {titleParagraph} from '../html/blocks.js'
import {componentChildren, flowOf, unwrapped} from './shared.js'

const stepNames: ReadonlySet<string> = new Set(['Step'])

/** A set of steps: an ordered list of its `<Step>`s, or its content (the list it wraps). */
export const stepsHandler: Handle = (state, element) => {
  const steps = componentChildren(element, stepNames)
  if (steps.length === 0) return unwrapped(state, element)
  const items = steps.map((step): ListItem => {
    const title = attribute(step, 'title')
    const content = flowOf(state, step)
    const item: ListItem = {
      type: 'listItem',
      spread: true,
      children: title ? [titleParagraph(title), ...content] : content
    }
    state.patch(step, item)
    return item
  })
  const list: List = {type: 'list', ordered: true, start: 1, spread: true, children: items}
  state.patch(element, list)
  return list
}

/** A step outside a set of steps: its title as a bold line, then its content. */
export const stepHandler: Handle = (state, element) => unwrapped(state, element, attribute(element, 'title'))

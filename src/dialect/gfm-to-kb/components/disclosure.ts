/**
 * Expanding blocks: `<Details summary>`, Mintlify `<Accordion title>` and
 * `<Expandable title>` become the dialect's details block, the summary or
 * title its summary. A group of them (`<AccordionGroup>`) is their
 * sequence.
 */
import type {Element} from 'hast'
import type {Handle} from 'hast-util-to-mdast'
import {attribute} from '../html/attributes.js'
import {detailsHandler} from '../html/blocks.js'

/** Components that are expanding blocks. */
export const expanding: ReadonlySet<string> = new Set(['Details', 'Accordion', 'Expandable'])

/** An expanding component as a details block. */
export const disclosureHandler: Handle = (state, element, parent) => {
  const summary = attribute(element, 'summary') ?? attribute(element, 'title')
  if (summary === undefined) return detailsHandler(state, element, parent)
  const summaryElement: Element = {
    type: 'element',
    tagName: 'summary',
    properties: {},
    children: [{type: 'text', value: summary}]
  }
  return detailsHandler(state, {...element, children: [summaryElement, ...element.children]}, parent)
}

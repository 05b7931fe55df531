/**
 * Components of docs sites written as capitalised JSX-like tags (MDX,
 * Mintlify, Docusaurus). HTML would read `<Note>` as an unknown `note`
 * element and `<Link>` as the void `link`, so before parsing a capitalised
 * tag name is turned into a custom element name of the same length
 * (`<T-bs>` for `<Tabs>`: offsets stay valid) and the element is converted
 * here by its name as written: admonitions become hint blocks, `<Details>`
 * and `<Accordion>` expanding blocks, anything else is unwrapped (a warning
 * is given where the element is found), a block when written on a line of
 * its own.
 */
import type {Element} from 'hast'
import type {Handle, State} from 'hast-util-to-mdast'
import type {Nodes, RootContent} from 'mdast'
import {admonitionColor} from '../alerts.js'
import {attribute} from './attributes.js'
import {holdsFlow} from './context.js'
import {detailsHandler, hintBlock, titleParagraph} from './blocks.js'

/** The hast tag name a component is parsed as; its name as written is in the `dataKbComponent` property. */
export const componentTag = 'kbsync-component'

const capitalised = /<(\/?)([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)(?=[\s/>])/g

/**
 * `html` with every capitalised, mixed-case tag name (`Note`, `TabItem`;
 * not `BR` or `DIV`, which are HTML) made a custom element name of the
 * same length (its second character a dash), so that no component is
 * parsed as the HTML element of the same name.
 */
export function maskComponents(html: string): string {
  if (!/<\/?[A-Z]/.test(html)) return html
  return html.replace(capitalised, (_, slash: string, name: string) => `<${slash}${name[0]}-${name.slice(2)}`)
}

/** The component name written at `offset` of `html` (the `<` of its tag), if a masked one starts there. */
export function componentAt(html: string, offset: number): string | undefined {
  capitalised.lastIndex = offset
  const match = capitalised.exec(html)
  capitalised.lastIndex = 0
  return match && match.index === offset && match[1] === '' ? match[2] : undefined
}

/** Whether the masked hast tag name `tagName` is a component's. */
export function isMaskedComponent(tagName: string): boolean {
  return tagName.length > 1 && tagName.charCodeAt(1) === 45 && /^[a-z]-[a-z0-9]*$/.test(tagName)
}

/** Components that are expanding blocks (their `summary` or `title` the summary). */
const expanding = new Set(['Details', 'Accordion', 'Expandable'])

/** Components that take their kind from a `type` attribute. */
const typedAdmonitions = new Set(['Admonition', 'Callout', 'Aside'])

/** Whether a component of this name becomes a construct (not unwrapped). */
export function isKnownComponent(name: string): boolean {
  return typedAdmonitions.has(name) || expanding.has(name) || admonitionColor(name) !== undefined
}

/** A component element: hint block, expanding block, or its content (with its label or title as a bold first line). */
export const componentHandler: Handle = (state: State, element: Element, parent) => {
  const name = attribute(element, 'dataKbComponent') ?? ''
  const title = attribute(element, 'title')
  const typed = typedAdmonitions.has(name)
  const color = typed ? (admonitionColor(attribute(element, 'type') ?? 'note') ?? 'gray') : admonitionColor(name)
  if (color !== undefined) return hintBlock(state, element, color, state.all(element), title)
  if (expanding.has(name)) {
    const summary = attribute(element, 'summary') ?? title
    if (summary === undefined) return detailsHandler(state, element, parent)
    const summaryElement: Element = {
      type: 'element',
      tagName: 'summary',
      properties: {},
      children: [{type: 'text', value: summary}]
    }
    return detailsHandler(state, {...element, children: [summaryElement, ...element.children]}, parent)
  }
  const content = state.all(element) as Nodes[]
  const label = attribute(element, 'label') ?? title
  // Written on a line of its own, a component is a block (`<Step>`, `<Frame>`): its content stays apart from its neighbours'.
  if (!holdsFlow(content) && attribute(element, 'dataKbBlock') === undefined) return content
  const blocks = state.toFlow(content as RootContent[])
  return label === undefined ? blocks : [titleParagraph(label), ...blocks]
}

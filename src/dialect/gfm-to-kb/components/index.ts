/**
 * What each docs-site component means, in one place for both ways a
 * component arrives: written in the HTML of a Markdown page (`../html/`)
 * or parsed from MDX (`../mdx/`, which hands its elements to the same
 * conversion). One module per family; a component no family knows is
 * unwrapped, its content kept, with one warning per page naming the props
 * that were lost (`unknown.ts`).
 */
import type {Handle} from 'hast-util-to-mdast'
import {attribute} from '../html/attributes.js'
import {calloutHandler, isCallout} from './callouts.js'
import {cardHandler, linkButtonHandler, linkCardHandler} from './cards.js'
import {codeHandler} from './code.js'
import {disclosureHandler, expanding} from './disclosure.js'
import {fieldHandler} from './fields.js'
import {badgeHandler, frameHandler, iconHandler, imageHandler, transparentHandler} from './marks.js'
import {stepHandler, stepsHandler} from './steps.js'
import {tabHandler, tabsHandler} from './tabs.js'
import {unwrapped} from './shared.js'

export {componentTag} from './shared.js'

/** Components by name (as written) -> their handler; callouts and expanding blocks are added below. */
const meanings = new Map<string, Handle>([
  ['Tabs', tabsHandler],
  ['TabItem', tabHandler],
  ['Tab', tabHandler],
  ['CodeGroup', transparentHandler],
  ['Card', cardHandler],
  ['LinkCard', linkCardHandler],
  ['LinkButton', linkButtonHandler],
  ['CardGrid', transparentHandler],
  ['CardGroup', transparentHandler],
  ['Columns', transparentHandler],
  ['Steps', stepsHandler],
  ['Step', stepHandler],
  ['AccordionGroup', transparentHandler],
  ['CodeBlock', codeHandler],
  ['Code', codeHandler],
  ['ParamField', fieldHandler],
  ['ResponseField', fieldHandler],
  ['Badge', badgeHandler],
  ['Icon', iconHandler],
  ['FileTree', transparentHandler],
  ['Frame', frameHandler],
  ['Tooltip', transparentHandler],
  ['Fragment', transparentHandler],
  ['Image', imageHandler]
])
for (const name of expanding) meanings.set(name, disclosureHandler)

/** The handler of the component named `name`, or undefined when no family knows it. */
function meaningOf(name: string): Handle | undefined {
  return meanings.get(name) ?? (isCallout(name) ? calloutHandler : undefined)
}

/** Whether a component of this name has a meaning here (else it is unwrapped with a warning). */
export function isKnownComponent(name: string): boolean {
  return meaningOf(name) !== undefined
}

/** A component element: converted by its meaning, or unwrapped (its label or title, if any, as a bold first line). */
export const componentHandler: Handle = (state, element, parent) => {
  const handle = meaningOf(attribute(element, 'dataKbComponent') ?? '')
  if (handle) return handle(state, element, parent)
  return unwrapped(state, element, attribute(element, 'label') ?? attribute(element, 'title'))
}

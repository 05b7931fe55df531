/**
 * Asides, admonitions and callouts: Docusaurus `<Admonition type title>`,
 * Starlight `<Aside type title>` (note, tip, caution, danger), Mintlify
 * `<Callout>`, `<Note>`, `<Tip>`, `<Warning>`, `<Info>`, `<Check>`, and any
 * component named after an admonition type. Each becomes a hint block of
 * the colour the docs tools' admonitions get (`admonitionColor`), its
 * title as the first bold line.
 */
import type {Handle} from 'hast-util-to-mdast'
import {admonitionColor, neutralColor} from '../alerts.js'
import {attribute} from '../html/attributes.js'
import {hintBlock} from '../html/blocks.js'

/** Components that take their kind from a `type` attribute (a note when none). */
const typed = new Set(['Admonition', 'Callout', 'Aside'])

/** Whether a component of this name is a callout. */
export function isCallout(name: string): boolean {
  return typed.has(name) || admonitionColor(name) !== undefined
}

/** A callout as a hint block. */
export const calloutHandler: Handle = (state, element) => {
  const name = attribute(element, 'dataKbComponent') ?? ''
  const color = typed.has(name)
    ? (admonitionColor(attribute(element, 'type') ?? 'note') ?? neutralColor)
    : (admonitionColor(name) ?? neutralColor)
  return hintBlock(state, element, color, state.all(element), attribute(element, 'title'))
}

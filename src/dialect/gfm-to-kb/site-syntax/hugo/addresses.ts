/**
 * A shortcode whose value is unknown (`param` of no front matter or
 * configuration) at the head of an address: the site would show a link
 * there, kbsync has no address to give it. An inline link
 * (`[text]({{% param repo %}}/tree)`) becomes its text, as for Liquid
 * (`../liquid-links.ts`); an autolink (`<{{% param repo %}}/tree>`) goes
 * whole: what is left of it (`</tree>`) is no address, and would read as a
 * stray tag. A definition (`[repo]: <{{% param repo %}}/tree>`) keeps an
 * empty address (`<>`): without one its line would be text that swallows
 * the definitions below it, and its references become their text.
 */
import {linkAround} from '../liquid-links.js'
import type {Shortcode} from './shortcodes.js'

// What precedes the address of a link reference definition: `[label]:` at the start of its line.
const definitionHead = /^[ \t]{0,3}\[[^\]]+\]:[ \t]*$/

/** What replaces the address `tag` starts: `text` in place of `text.slice(open, close)`. */
export interface AddressLeftOut {
  open: number
  text: string
  close: number
}

/** The link or autolink of `line` whose address `tag` starts (looked for from `from`; `above` is the line before), or undefined. */
export function addressAround(line: string, tag: Shortcode, from: number, above = ''): AddressLeftOut | undefined {
  if (line.slice(tag.start - 2, tag.start) === '](') return linkAround(line, tag.start, tag.end, from)
  if (tag.start - 1 < from || line[tag.start - 1] !== '<') return undefined
  const close = line.indexOf('>', tag.end)
  if (close === -1 || /[\s<]/.test(line.slice(tag.end, close))) return undefined
  // The label may stand on the line above, the address alone on its own line.
  const head = line.slice(from, tag.start - 1)
  const definition = definitionHead.test(head) || (head.trim() === '' && definitionHead.test(above))
  return {open: tag.start - 1, text: definition ? '<>' : '', close: close + 1}
}

/**
 * A body rendered once with a slot in place of each link's id. A document
 * of a link cycle is rendered twice: first provisionally (links to
 * documents not created yet as their text), then whole, once those exist.
 * For an article of hundreds of links, parsing its Markdown again for the
 * whole write cost more than the write, and its tree weighs ten times its
 * text, too much to keep for every such document until then. What is kept
 * is the canonical text the whole render gives with each link's id left
 * out: the whole write fills in the ids known then. An article link is a
 * tag (`<a data-node="articleLink" data-article-id="ID">`) whose id is an
 * attribute value, and nothing around it depends on the id (the dialect
 * aligns no table), so the filled text is the render of the tree, byte for
 * byte.
 */
import {randomBytes} from 'node:crypto'
import type {LocalNode} from '../../local/index.js'

/** The whole render of a body, its link ids left out. */
export interface RenderTemplate {
  /** What else the text depends on (the body, the notice, the root, file references): `templateKey` of `render.ts`. */
  key: string
  /** The rendered text without the ids. */
  text: string
  /** Where each id goes in `text`, in text order. */
  at: Uint32Array
  /** The link target of each slot: an index into `targets`. */
  slot: Uint32Array
  /** The documents the slots link to, each once. */
  targets: readonly string[]
}

/** An id written into the attribute as it is: `encodeAttribute` leaves it unchanged. */
export const plainId = /^[^&"<>\n\r]+$/

/** A fresh prefix for the ids a template is rendered with: letters and digits no body can hold by chance. */
export function slotPrefix(): string {
  return `kbslot${randomBytes(9).toString('hex')}n`
}

/**
 * The template of `rendered`, a body rendered with the id `prefix + k` for
 * the link to `slotTargets[k]`; undefined unless each slot is found in it
 * exactly once (a link the render wrote twice, or not at all, has no slot).
 */
export function templateOf(
  rendered: string,
  prefix: string,
  slotTargets: readonly string[],
  key: string
): RenderTemplate | undefined {
  const targets: string[] = []
  const indexOf = new Map<string, number>()
  const found = new Uint8Array(slotTargets.length)
  const slot: number[] = []
  const pieces: string[] = []
  let from = 0
  for (let start = rendered.indexOf(prefix); start >= 0; start = rendered.indexOf(prefix, from)) {
    let end = start + prefix.length
    while (end < rendered.length && rendered.charCodeAt(end) >= 48 && rendered.charCodeAt(end) <= 57) end++
    const k = Number(rendered.slice(start + prefix.length, end))
    const target = slotTargets[k]
    if (end === start + prefix.length || target === undefined || found[k]) return undefined
    found[k] = 1
    pieces.push(rendered.slice(from, start))
    let index = indexOf.get(target)
    if (index === undefined) indexOf.set(target, (index = targets.push(target) - 1))
    slot.push(index)
    from = end
  }
  if (slot.length !== slotTargets.length) return undefined
  pieces.push(rendered.slice(from))
  return {key, text: pieces.join(''), at: offsetsOf(pieces), slot: Uint32Array.from(slot), targets}
}

/** Where each piece but the first begins in the pieces joined. */
function offsetsOf(pieces: readonly string[]): Uint32Array {
  const at = new Uint32Array(pieces.length - 1)
  let offset = 0
  for (let k = 0; k < at.length; k++) at[k] = offset += pieces[k]!.length
  return at
}

/**
 * The body `template` renders to with the ids of `idOf` (a link to a
 * document without an id yet holds `PENDING`, as the tree's render does,
 * and is listed in `missingLinks`); undefined when an id would need
 * escaping in the attribute (the tree renders it then).
 */
export function fillTemplate(
  template: RenderTemplate,
  idOf: (target: string) => string | undefined
): {body: string; missingLinks: string[]} | undefined {
  const missingLinks: string[] = []
  const body = fillSlots(template, (target) => {
    const id = idOf(target)
    if (id === undefined) missingLinks.push(target)
    else if (!plainId.test(id)) return undefined
    return id ?? 'PENDING'
  })
  return body === undefined ? undefined : {body, missingLinks}
}

/** What goes in a slot: an id, or text in place of the template's text from `start` to `end` (around the slot). */
export type SlotFill = string | {start: number; end: number; text: string}

/**
 * The text of `template` with each slot filled by `fill` (given the slot's
 * target and where the slot is in the text); undefined when `fill` answers
 * undefined for a slot, or a replacement reaches back past the one before.
 */
export function fillSlots(
  template: RenderTemplate,
  fill: (target: string, at: number) => SlotFill | undefined
): string | undefined {
  const {text, at, slot, targets} = template
  const parts: string[] = []
  let from = 0
  for (let k = 0; k < at.length; k++) {
    const filled = fill(targets[slot[k]!]!, at[k]!)
    if (filled === undefined) return undefined
    const cut = typeof filled === 'string' ? {start: at[k]!, end: at[k]!, text: filled} : filled
    if (cut.start < from) return undefined
    parts.push(text.slice(from, cut.start), cut.text)
    from = cut.end
  }
  parts.push(text.slice(from))
  return parts.join('')
}

/** What a template holds, in characters (its text, and four per slot for each of its two offsets). */
export function templateWeight(template: RenderTemplate): number {
  return template.text.length + 8 * template.at.length
}

const held = new WeakMap<LocalNode, RenderTemplate>()

/** The template kept for `node`, if any. */
export function heldTemplate(node: LocalNode): RenderTemplate | undefined {
  return held.get(node)
}

/** Keeps `template` for `node` until `dropTemplate`. */
export function holdTemplate(node: LocalNode, template: RenderTemplate): void {
  held.set(node, template)
}

/** Lets go of the template of `node` (nothing when it has none). */
export function dropTemplate(node: LocalNode): void {
  held.delete(node)
}

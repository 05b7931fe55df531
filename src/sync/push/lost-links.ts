/**
 * A failed document fails no other. A document linking to one that could
 * not be created in this run (so it has no id) is written all the same,
 * each link to it published as its text, the way a link cycle's first
 * create is (`renderWithoutUnknownLinks`); its state entry is marked
 * pending, so the next run writes it whole once the target exists. Should
 * the target fail again, the same partial body is already stored and
 * nothing is written.
 */
import type {LocalNode} from '../../local/index.js'
import {renderBody, renderWithoutUnknownLinks, type RenderContext, type Rendered} from '../shared/render.js'

/** A body as the run can write it now. */
export interface WriteRender {
  rendered: Rendered
  /** The documents it links to that could not be written this run: their links are text. */
  lost: string[]
}

/**
 * Renders `node` with `context`: whole, or, when it links to documents of
 * `failed` that have no id, with those links as their text.
 */
export function renderForWrite(
  node: LocalNode,
  context: RenderContext,
  failed: ReadonlyMap<string, string>
): WriteRender {
  const whole = renderBody(node, context)
  const lost = [...new Set(whole.missingLinks.filter((target) => target !== node.path && failed.has(target)))]
  if (lost.length === 0) return {rendered: whole, lost}
  const rendered = renderWithoutUnknownLinks(node, context)
  // Only the lost links are accounted for: any other target without an id is still missing (its own: created first).
  return {rendered: {...rendered, missingLinks: rendered.missingLinks.filter((target) => !lost.includes(target))}, lost}
}

/** The body stored once the write's fresh uploads have URLs (`context`), the lost links still text. */
export function renderStored(node: LocalNode, context: RenderContext, lost: readonly string[]): Rendered {
  return lost.length > 0 ? renderWithoutUnknownLinks(node, context) : renderBody(node, context)
}

/** The words of a write that lost links, for its action line. */
export function lostLinksNote(lost: readonly string[]): string {
  return `${lost.length === 1 ? 'its link' : 'its links'} to ${lost.join(', ')} as text until ${lost.length === 1 ? 'that is' : 'those are'} written`
}

/** The warning of a write that lost links: which, why, and what happens next. */
export function lostLinksWarning(
  node: LocalNode,
  lost: readonly string[],
  failed: ReadonlyMap<string, string>
): string {
  const each = lost.map((target) => `${target} (${failed.get(target) ?? 'not written'})`)
  const one = lost.length === 1
  return `${node.path}: ${one ? 'its link' : 'its links'} to ${each.join(', ')} ${one ? 'is' : 'are'} published as text, as ${one ? 'that document' : 'those documents'} could not be written; the next push completes ${node.path}`
}

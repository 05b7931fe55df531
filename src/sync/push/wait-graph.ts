/**
 * What a document waits for before it is written, in one place for the
 * creation order (`creation-order.ts`) and the scheduler's priorities
 * (`tasks.ts`): its parent topic and the sibling to be created just before
 * it where a navigation gave the order (waits no create can skip: the
 * platform needs the parent's id, and lists siblings in creation order), and
 * the documents it links to (a wait a provisional create skips).
 */
import type {LocalNode} from '../../local/index.js'

/** The keys `node` waits for whatever happens: the sibling before it (`after`), its parent topic (`parentPath`, none for the root). */
export function structuralWaitsOf(parentPath: string, after: string | undefined): string[] {
  const waits: string[] = []
  if (after !== undefined) waits.push(after)
  if (parentPath !== '') waits.push(parentPath)
  return waits
}

/** The keys of the documents `node` links to (not itself): what its full body needs ids of. */
export function linkWaitsOf(node: LocalNode): string[] {
  const waits: string[] = []
  for (const link of node.refs.links) if (link.target !== '' && link.target !== node.path) waits.push(link.target)
  return waits
}

/** The keys `node` waits for: the sibling before it (`after`), its parent topic (`parentPath`, none for the root), its link targets. */
export function waitsOf(node: LocalNode, parentPath: string, after: string | undefined): string[] {
  return [...structuralWaitsOf(parentPath, after), ...linkWaitsOf(node)]
}

/**
 * What a document waits for before it is written, in one place for the
 * creation order (`creation-order.ts`) and the scheduler's priorities
 * (`apply.ts`): its parent topic, the documents it links to, and the
 * sibling to be created just before it where a navigation gave the order.
 */
import type {LocalNode} from '../../local/index.js'

/** The keys `node` waits for: the sibling before it (`after`), its parent topic (`parentPath`, none for the root), its link targets. */
export function waitsOf(node: LocalNode, parentPath: string, after: string | undefined): string[] {
  const waits: string[] = []
  if (after !== undefined) waits.push(after)
  if (parentPath !== '') waits.push(parentPath)
  for (const link of node.refs.links) if (link.target !== '' && link.target !== node.path) waits.push(link.target)
  return waits
}

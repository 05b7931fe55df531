/**
 * A small preorder walk for the conversion passes. `unist-util-visit` builds
 * a named closure and a parents array for every node it passes, which made
 * up about a third of `gfmToKbTree` on short articles; this walk keeps the
 * semantics the passes rely on without that overhead.
 */
import type {Nodes, Parents} from 'mdast'

/** Answer of a visitor: do not enter the node's children. */
export const SKIP = 'skip'

/**
 * What a visitor answers: nothing (enter the node's children, then go on
 * with the next sibling), `SKIP` (go on with the next sibling), or an index
 * (go on with the sibling at that index, without entering the node).
 */
export type Next = void | typeof SKIP | number

/** Called on every node below the root, with its index and parent. */
export type Visitor = (node: Nodes, index: number, parent: Parents) => Next

/**
 * Walk the nodes below `parent` in preorder, as `visit(tree, visitor)`
 * does: the children a node is entered with are those of the node that was
 * visited (even when the visitor replaced it in its parent), and
 * `parent.children` is re-read at every step, so visitors may splice it.
 */
export function walk(parent: Parents, visitor: Visitor): void {
  let index = 0
  while (index < parent.children.length) {
    const node = parent.children[index] as Nodes
    const next = visitor(node, index, parent)
    if (typeof next === 'number') {
      index = next
      continue
    }
    if (next !== SKIP && 'children' in node && node.children) walk(node, visitor)
    index++
  }
}

/** The types of the nodes in a tree: one walk that lets passes whose node types are absent be skipped. */
export function nodeTypes(tree: Parents): Set<string> {
  const types = new Set<string>([tree.type])
  walk(tree, (node) => void types.add(node.type))
  return types
}

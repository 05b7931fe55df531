/**
 * A parsed tree's children arrays at their length. mdast-util-from-markdown
 * pushes children one by one, and V8 grows an array by half and 16 slots
 * more: a table cell's one text node sat in an array of 17 slots. On a long
 * table or list that was a quarter of the tree (43.7 MB of a 20,000-row
 * table, 33.0 MB compacted).
 */
import type {Nodes, Root} from 'mdast'

/** Replaces every children array of `tree` by a copy of its length (an explicit stack: trees nest deep). */
export function compactChildren(tree: Root): void {
  const stack: Nodes[] = [tree]
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (!('children' in node)) continue
    const children = node.children.slice()
    node.children = children as typeof node.children
    for (const child of children) stack.push(child)
  }
}

/**
 * What holding parsed trees costs, counted in nodes. A scan keeps some
 * trees for the renders just ahead, and a push keeps the trees of documents
 * it created provisionally until their whole write; a count of trees bounds
 * neither: an article of 300 links has a tree six times a plain article's,
 * and a few hundred of them held a push's heap at hundreds of megabytes.
 * A budget of nodes bounds what is held by its size, whatever the shape of
 * the articles.
 */

/**
 * Nodes of kept trees a scan holds at most (and, apart, a push's
 * provisional documents): about 256 trees of 2-4 KB articles, which hold
 * some 200 bytes of heap per node once their positions are dropped.
 */
export const keptTreeNodesMax = 64_000

/** The count of nodes of `tree` (iterative: a tree's depth never overflows the stack). */
export function treeNodes(tree: {children?: unknown[]}): number {
  const stack: Array<{children?: unknown[]}> = [tree]
  let nodes = 0
  for (let node = stack.pop(); node; node = stack.pop()) {
    nodes++
    if (Array.isArray(node.children)) for (const child of node.children) stack.push(child as (typeof stack)[number])
  }
  return nodes
}

/** Trees held by key, within a budget of nodes. */
export class TreeBudget {
  private readonly held = new Map<string, number>()
  private nodes = 0

  /** `max`: the nodes the held trees may count together. */
  constructor(readonly max: number = keptTreeNodesMax) {}

  /** Counts the tree of `key` (`nodes` nodes) as held when it fits in what is left; says whether it does. */
  keep(key: string, nodes: number): boolean {
    if (this.held.has(key)) return true
    if (this.nodes + nodes > this.max) return false
    this.held.set(key, nodes)
    this.nodes += nodes
    return true
  }

  /** The tree of `key` is no longer held (nothing when it was not). */
  release(key: string): void {
    const nodes = this.held.get(key)
    if (nodes === undefined) return
    this.held.delete(key)
    this.nodes -= nodes
  }

  /** How many trees are held. */
  get size(): number {
    return this.held.size
  }

  /** How many nodes the held trees count. */
  get heldNodes(): number {
    return this.nodes
  }
}

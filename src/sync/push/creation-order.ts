/**
 * The order new items are created in. The platform lists a topic's items
 * in the order they were created, so where a navigation file gave a topic's
 * order, each create waits for the create planned before it in that topic
 * (elsewhere, the folder's alphabetical order is no author's intent and not
 * worth a slower first push). That wait can close a cycle with the wait for link
 * targets (an introduction linking to a later chapter: the introduction
 * goes first, the chapter needs it created first). Such a document is
 * created at once with a provisional body and written in full once its
 * targets exist, instead of the whole run stalling until nothing else can
 * run. Pure: plan operations in, waits out.
 */
import type {LocalNode} from '../../local/index.js'
import type {PlanOp} from '../shared/types.js'
import {waitsOf} from './wait-graph.js'

/** What the scheduler needs to keep the order. */
export interface CreationOrder {
  /** The create each create waits for: the one planned just before it in the same topic. */
  after: Map<string, string>
  /** Creates to make provisionally as soon as their turn comes: they link ahead to a document that waits, through the order, for them. */
  provisionalFirst: Set<string>
}

/**
 * The order waits of the creates of `ops` (in plan order), and the creates
 * whose links ahead would otherwise close a cycle of waits. `parentOf`
 * gives a document's parent topic key.
 */
export function creationOrder(
  ops: readonly PlanOp[],
  byPath: Readonly<Record<string, LocalNode>>,
  parentOf: (node: LocalNode) => string
): CreationOrder {
  const creates = ops.filter((op) => op.op === 'create').map((op) => op.path)
  const index = new Map(creates.map((path, position) => [path, position]))
  const after = new Map<string, string>()
  const last = new Map<string, string>()
  const waits: number[][] = creates.map(() => [])
  // Creates that wait for a sibling by the order.
  const ordering = new Set<number>()
  creates.forEach((path, position) => {
    const node = byPath[path]!
    const parent = parentOf(node)
    const previous = last.get(parent)
    const topic = byPath[parent]
    if (previous !== undefined && topic?.kind === 'topic' && topic.ordered) {
      after.set(path, previous)
      ordering.add(position)
    }
    last.set(parent, path)
    for (const on of waitsOf(node, parent, after.get(path))) {
      const target = index.get(on)
      if (target !== undefined) waits[position]!.push(target)
    }
  })
  const component = stronglyConnected(waits)
  // Cycles the order closes; a cycle of links alone is broken when it is met, as before.
  const orderCycles = new Set<number>()
  for (const position of ordering)
    if (component[position] === component[index.get(after.get(creates[position]!)!)!])
      orderCycles.add(component[position]!)
  const provisionalFirst = new Set<string>()
  creates.forEach((path, position) => {
    // Order and parent waits point back in plan order, so every cycle holds a link ahead: breaking those breaks them all.
    const ahead = byPath[path]!.refs.links.some((link) => {
      const target = index.get(link.target)
      return (
        target !== undefined &&
        target > position &&
        component[target] === component[position] &&
        orderCycles.has(component[position]!)
      )
    })
    if (ahead) provisionalFirst.add(path)
  })
  return {after, provisionalFirst}
}

/** The strongly connected component of each node of the graph `edges` (Tarjan's algorithm, iterative: chains run thousands deep). */
function stronglyConnected(edges: number[][]): number[] {
  const count = edges.length
  const order = new Array<number>(count).fill(-1)
  const low = new Array<number>(count).fill(0)
  const component = new Array<number>(count).fill(-1)
  const onStack = new Array<boolean>(count).fill(false)
  const stack: number[] = []
  let counter = 0
  let components = 0
  for (let start = 0; start < count; start++) {
    if (order[start] !== -1) continue
    const frames: Array<{node: number; edge: number}> = [{node: start, edge: 0}]
    order[start] = low[start] = counter++
    stack.push(start)
    onStack[start] = true
    while (frames.length > 0) {
      const frame = frames.at(-1)!
      const next = edges[frame.node]![frame.edge++]
      if (next !== undefined) {
        if (order[next] === -1) {
          order[next] = low[next] = counter++
          stack.push(next)
          onStack[next] = true
          frames.push({node: next, edge: 0})
        } else if (onStack[next]) low[frame.node] = Math.min(low[frame.node]!, order[next]!)
        continue
      }
      frames.pop()
      const parent = frames.at(-1)
      if (parent) low[parent.node] = Math.min(low[parent.node]!, low[frame.node]!)
      if (low[frame.node] === order[frame.node]) {
        for (;;) {
          const member = stack.pop()!
          onStack[member] = false
          component[member] = components
          if (member === frame.node) break
        }
        components++
      }
    }
  }
  return component
}

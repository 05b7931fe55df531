/**
 * Which new documents are created provisionally (their own text, links to
 * documents without an id yet as text, written whole once those exist)
 * instead of waiting for the documents they link to. Waiting is free while
 * the waits are short; a cycle of waits never ends, and a long chain of them
 * (a "next page" footer through thousands of articles) makes the run create
 * one article at a time. Breaking a document's link waits costs one request
 * (its second write), so as few are broken as make the waits finite and
 * shallow:
 *
 * - cycles: a depth-first walk in plan order; a wait that closes a cycle
 *   breaks the document nearest the cycle's start whose link leads into it
 *   (a hub linked back by many documents is broken once, not each of them).
 *   That suits the cycles a navigation's order makes; where pages link
 *   ahead and back at random it breaks nine in ten, and the greedy cut of
 *   `greedy-cut.ts` breaks a fifth: the smaller of the two is kept, less
 *   the documents the others' breaks made needless (`prune-breaks.ts`)
 *   where that breaks fewer once depth is bounded too;
 * - depth: in dependency order, a document whose link waits would make it
 *   more than `depthLimit` deep is broken, where that shortens it (a
 *   folder's nesting or a navigation's order cannot be skipped).
 *
 * Pure and iterative (chains run tens of thousands deep): a graph of
 * indices in, the broken indices out.
 */
import {greedyCut} from './greedy-cut.js'
import {pruneBreaks} from './prune-breaks.js'

/** The waits between creates, by index. */
export interface WaitGraph {
  /** Per document, those it waits for whatever happens (its parent topic, the sibling created before it). */
  structural: ReadonlyArray<readonly number[]>
  /** Per document, those it links to: waits a provisional create skips. */
  links: ReadonlyArray<readonly number[]>
}

/** The documents of `graph` to create provisionally: after them, the waits are acyclic and at most `depthLimit` deep where links can make them so. */
export function provisionalNodes(graph: WaitGraph, depthLimit: number): Set<number> {
  const walked = depthFirstCut(graph)
  const greedy = greedyCut(graph)
  const cut = greedy.size < walked.size ? greedy : walked
  // A needless break can still keep a chain short: the pruned cut is kept only when it breaks fewer within the limit.
  const pruned = new Set(cut)
  pruneBreaks(graph, pruned)
  boundDepth(graph, cut, depthLimit)
  if (pruned.size < cut.size) boundDepth(graph, pruned, depthLimit)
  return pruned.size < cut.size ? pruned : cut
}

/** The documents whose link waits, once broken, leave no cycle: the cuts of depth-first walks. */
function depthFirstCut(graph: WaitGraph): Set<number> {
  const broken = new Set<number>()
  const count = graph.structural.length
  let left: Uint8Array = new Uint8Array(count).fill(1)
  // A walk's cut can leave a cycle through another path to the same document: walk again what is left, a few times.
  for (let round = 0; round < CYCLE_ROUNDS; round++) {
    breakCycles(graph, broken, left)
    left = leftOver(count, dependencyOrder(graph, broken))
    if (!left.includes(1)) break
  }
  // Still some: links ahead in plan order broken, so every wait left points back (parents and order always do).
  if (left.includes(1))
    for (let node = 0; node < count; node++)
      if (left[node] && graph.links[node]!.some((target) => target > node && left[target])) broken.add(node)
  return broken
}

/** Walks of the cycles before the plan-order fallback (each walk breaks at least one document of what cycles remain). */
const CYCLE_ROUNDS = 4

/** The documents outside `order`: in a cycle or waiting on one. */
function leftOver(count: number, order: number[]): Uint8Array {
  const left = new Uint8Array(count).fill(1)
  for (const node of order) left[node] = 0
  return left
}

/** The walk's path: the documents on it, the next wait of each, and which of its steps were links. */
interface Walk {
  path: number[]
  edge: number[]
  /** Positions on the path whose step to the next is a link, ascending. */
  linkSteps: number[]
  /** Positions whose link step was broken since, ascending: a cycle through one is cut already. */
  cuts: number[]
}

/** Walks the documents marked in `left` (and the waits between them) depth-first, breaking the cycles it closes. */
function breakCycles(graph: WaitGraph, broken: Set<number>, left: Uint8Array): void {
  const count = graph.structural.length
  // 0: not reached, 1: on the walk's path, 2: done.
  const state = new Uint8Array(count)
  const position = new Int32Array(count)
  for (let start = 0; start < count; start++) {
    if (state[start] !== 0 || !left[start]) continue
    const walk: Walk = {path: [start], edge: [0], linkSteps: [], cuts: []}
    state[start] = 1
    while (walk.path.length > 0) {
      const top = walk.path.length - 1
      const node = walk.path[top]!
      const k = walk.edge[top]!++
      const structural = graph.structural[node]!
      const isLink = k >= structural.length
      const next = !isLink ? structural[k] : broken.has(node) ? undefined : graph.links[node]![k - structural.length]
      if (next === undefined) {
        state[node] = 2
        walk.path.pop()
        walk.edge.pop()
        if (walk.linkSteps.at(-1) === top - 1) walk.linkSteps.pop()
        if (walk.cuts.at(-1) === top - 1) walk.cuts.pop()
      } else if (!left[next]) continue
      else if (state[next] === 0) {
        if (isLink) walk.linkSteps.push(top)
        state[next] = 1
        position[next] = walk.path.length
        walk.path.push(next)
        walk.edge.push(0)
      } else if (state[next] === 1) closeCycle(walk, position[next]!, isLink, broken)
    }
  }
}

/** A wait from the path's last document back to position `from` closes a cycle: breaks its first link step, unless one is broken already. */
function closeCycle(walk: Walk, from: number, isLink: boolean, broken: Set<number>): void {
  if ((walk.cuts.at(-1) ?? -1) >= from) return
  const step = firstAtLeast(walk.linkSteps, from)
  if (step !== undefined) {
    broken.add(walk.path[step]!)
    walk.cuts.push(step)
  } else if (isLink) broken.add(walk.path.at(-1)!)
  // Otherwise a cycle without links: none exist (parents and order point back in plan order); the scheduler's fallback would break it.
}

/** The first value of the ascending `values` at least `from`. */
function firstAtLeast(values: readonly number[], from: number): number | undefined {
  let low = 0
  let high = values.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (values[middle]! < from) low = middle + 1
    else high = middle
  }
  return values[low]
}

/** The documents in dependency order (Kahn's): each after all it waits for; those of a cycle, and what waits on them, never come. */
function dependencyOrder(graph: WaitGraph, broken: Set<number>): number[] {
  const count = graph.structural.length
  const waiters: number[][] = Array.from({length: count}, () => [])
  const unmet = new Int32Array(count)
  for (let node = 0; node < count; node++) {
    const waits = broken.has(node) ? [graph.structural[node]!] : [graph.structural[node]!, graph.links[node]!]
    for (const list of waits)
      for (const on of list) {
        waiters[on]!.push(node)
        unmet[node]!++
      }
  }
  const order: number[] = []
  for (let node = 0; node < count; node++) if (unmet[node] === 0) order.push(node)
  for (let at = 0; at < order.length; at++)
    for (const waiter of waiters[order[at]!]!) if (--unmet[waiter]! === 0) order.push(waiter)
  return order
}

/** Breaks, in dependency order, each document whose link waits would make it deeper than `depthLimit`, where that shortens it. */
function boundDepth(graph: WaitGraph, broken: Set<number>, depthLimit: number): void {
  const depth = new Int32Array(graph.structural.length)
  for (const node of dependencyOrder(graph, broken)) {
    const structural = deepest(graph.structural[node]!, depth)
    const linked = broken.has(node) ? 0 : deepest(graph.links[node]!, depth)
    if (linked + 1 > depthLimit && linked > structural) broken.add(node)
    depth[node] = 1 + (broken.has(node) ? structural : Math.max(structural, linked))
  }
}

function deepest(nodes: readonly number[], depth: Int32Array): number {
  let most = 0
  for (const node of nodes) most = Math.max(most, depth[node]!)
  return most
}

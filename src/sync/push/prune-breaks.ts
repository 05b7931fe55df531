/**
 * Breaks a cut made that the other breaks made needless. The depth-first
 * and the greedy cuts of `break-waits.ts` each pick a document per cycle
 * as they meet it; a later pick can cut every cycle an earlier one was
 * picked for, and that earlier document is then created provisionally
 * (a second write, and its body parsed and rendered once more) for
 * nothing: biome-docs' cut left 4 of its 49 documents so, and a tree of
 * 3,000 pages linking three times at random 480 of 2,307 (a fifth). Each
 * broken document is given its link waits back, in reverse plan order, when no link of it
 * leads back to it through the waits still standing (a cycle it would
 * close). The search is bounded: past `VISITS_PER_WAIT` visits per wait of
 * the graph, the breaks left are kept, so a large tree's pruning stays
 * linear. The waits stay acyclic throughout.
 */
import type {WaitGraph} from './break-waits.js'

/** Waits the pruning may visit, per wait of the graph (and per document), before it keeps the breaks left. */
const VISITS_PER_WAIT = 16

/** Gives the documents of `broken` whose link waits would close no cycle their link waits back (in place). */
export function pruneBreaks(graph: WaitGraph, broken: Set<number>): void {
  const count = graph.structural.length
  let waits = count
  for (let node = 0; node < count; node++) waits += graph.structural[node]!.length + graph.links[node]!.length
  const search: Search = {graph, broken, seen: new Int32Array(count).fill(-1), budget: VISITS_PER_WAIT * waits}
  for (const node of [...broken].sort((a, b) => b - a)) {
    broken.delete(node)
    if (closesCycle(search, node)) broken.add(node)
    if (search.budget <= 0) return
  }
}

/** A bounded search of the standing waits; `seen` holds, per document, the last document searched for from it. */
interface Search {
  graph: WaitGraph
  broken: Set<number>
  seen: Int32Array
  /** Visits left. */
  budget: number
}

/** Whether a link wait of `node` leads back to it through the standing waits (true, too, when the budget ran out). */
function closesCycle(search: Search, node: number): boolean {
  const {graph, broken, seen} = search
  const stack: number[] = []
  const visit = (on: number) => {
    if (seen[on] === node) return
    seen[on] = node
    stack.push(on)
  }
  for (const target of graph.links[node]!) visit(target)
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    if (at === node || --search.budget <= 0) return true
    for (const on of graph.structural[at]!) visit(on)
    if (!broken.has(at)) for (const on of graph.links[at]!) visit(on)
  }
  return false
}

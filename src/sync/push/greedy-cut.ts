/**
 * A second way to pick the documents `break-waits.ts` creates provisionally
 * so that no wait is circular. The fewest that meet every cycle is an
 * NP-hard choice; the depth-first cut there suits trees whose cycles come
 * from a navigation's order (an introduction linking to a later chapter),
 * while on trees whose pages link ahead and back at random it breaks nine in
 * ten. This is the classic greedy reduction instead: documents no cycle can
 * pass through (nothing standing waits for them, or they wait for nothing
 * standing) are set aside, over and over, and of the rest the one with the
 * most waits in times link waits out is broken (a hub linked back by many
 * documents is broken once); ties go to the first in plan order. On such a
 * tree of 3,000 pages it breaks a fifth of them.
 *
 * Pure and iterative: a graph of indices in, the broken indices out.
 */
import type {WaitGraph} from './break-waits.js'
import {ReadyQueue} from './ready-queue.js'

/** The waits still standing while cycles are cut, among the documents a cycle may still pass through. */
interface Standing {
  graph: WaitGraph
  broken: Set<number>
  /** 1 while a document may still be on a cycle. */
  open: Uint8Array
  /** Per document, those waiting for it through structure, and through links. */
  structuralWaiters: number[][]
  linkWaiters: number[][]
  /** Standing waits into and out of each document, and its standing link waits out. */
  waitsIn: Int32Array
  waitsOut: Int32Array
  linksOut: Int32Array
  /** Documents found on no cycle, to set aside. */
  closing: number[]
  /** The documents to break next, best first (an entry is stale once its document's degrees moved). */
  queue: ReadyQueue<Candidate>
}

interface Candidate {
  node: number
  rank: number
}

/** The documents whose link waits, once broken, leave no cycle among the waits of `graph`. */
export function greedyCut(graph: WaitGraph): Set<number> {
  const standing = standingWaits(graph)
  const {open, broken, queue, linksOut} = standing
  for (let node = 0; node < open.length; node++) touch(standing, node)
  setAsideClosing(standing)
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    const {node, rank} = next
    if (!open[node] || broken.has(node) || linksOut[node] === 0 || rank !== rankOf(standing, node)) continue
    breakLinks(standing, node)
    setAsideClosing(standing)
  }
  return broken
}

function standingWaits(graph: WaitGraph): Standing {
  const count = graph.structural.length
  const standing: Standing = {
    graph,
    broken: new Set(),
    open: new Uint8Array(count).fill(1),
    structuralWaiters: Array.from({length: count}, () => []),
    linkWaiters: Array.from({length: count}, () => []),
    waitsIn: new Int32Array(count),
    waitsOut: new Int32Array(count),
    linksOut: new Int32Array(count),
    closing: [],
    queue: new ReadyQueue((candidate: Candidate) => candidate.rank)
  }
  for (let node = 0; node < count; node++) {
    for (const on of graph.structural[node]!) standing.structuralWaiters[on]!.push(node)
    for (const on of graph.links[node]!) standing.linkWaiters[on]!.push(node)
    for (const on of [...graph.structural[node]!, ...graph.links[node]!]) standing.waitsIn[on]!++
    standing.waitsOut[node] = graph.structural[node]!.length + graph.links[node]!.length
    standing.linksOut[node] = graph.links[node]!.length
  }
  return standing
}

/** Lowest first: the most waits in times waits out, then plan order. */
function rankOf({waitsIn, linksOut, open}: Standing, node: number): number {
  return -waitsIn[node]! * linksOut[node]! * (open.length + 1) + node
}

/** After `node`'s degrees moved: set aside once on no cycle, else queued at its new rank. */
function touch(standing: Standing, node: number): void {
  if (!standing.open[node]) return
  if (standing.waitsIn[node] === 0 || standing.waitsOut[node] === 0) standing.closing.push(node)
  else if (standing.linksOut[node]! > 0 && !standing.broken.has(node))
    standing.queue.push({node, rank: rankOf(standing, node)})
}

/** Sets aside every document found on no cycle, and those that leaves on none. */
function setAsideClosing(standing: Standing): void {
  const {graph, open, broken, waitsIn, waitsOut, linksOut, closing} = standing
  for (let node = closing.pop(); node !== undefined; node = closing.pop()) {
    if (!open[node]) continue
    open[node] = 0
    const waitsFor = broken.has(node) ? graph.structural[node]! : [...graph.structural[node]!, ...graph.links[node]!]
    for (const on of waitsFor) if (open[on]) moved(standing, on, waitsIn)
    for (const waiter of standing.structuralWaiters[node]!) if (open[waiter]) moved(standing, waiter, waitsOut)
    for (const waiter of standing.linkWaiters[node]!)
      if (open[waiter] && !broken.has(waiter)) {
        linksOut[waiter]!--
        moved(standing, waiter, waitsOut)
      }
  }
}

/** One standing wait of `node` counted in `degree` is gone. */
function moved(standing: Standing, node: number, degree: Int32Array): void {
  degree[node]!--
  touch(standing, node)
}

/** Breaks `node`: its link waits no longer stand. */
function breakLinks(standing: Standing, node: number): void {
  const {graph, open, broken, waitsIn, waitsOut, linksOut} = standing
  broken.add(node)
  for (const on of graph.links[node]!)
    if (open[on]) {
      waitsOut[node]!--
      moved(standing, on, waitsIn)
    }
  linksOut[node] = 0
  touch(standing, node)
}

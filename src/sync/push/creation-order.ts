/**
 * The order new items are created in. The platform lists a topic's items
 * in the order they were created, so where a navigation file gave a topic's
 * order, each create waits for the create planned before it in that topic
 * (elsewhere, the folder's alphabetical order is no author's intent and not
 * worth a slower first push). A create also waits for its parent topic and
 * for the documents it links to, so that its body goes out whole in one
 * request. Link waits can close a cycle (two documents linking to each
 * other; an introduction linking to a later chapter that waits for it
 * through the order) or make a chain thousands deep (a "next page" footer):
 * the documents `break-waits.ts` picks are created at once with a
 * provisional body and written in full once their targets exist, instead of
 * the run stalling or creating one article at a time. Pure: plan operations
 * in, waits out.
 */
import type {LocalNode} from '../../local/index.js'
import type {PlanOp} from '../shared/types.js'
import {provisionalNodes, type WaitGraph} from './break-waits.js'
import {linkWaitsOf, structuralWaitsOf} from './wait-graph.js'

/** The deepest chain of link waits kept whatever the size of the run: ordinary trees keep one request per document. */
const MIN_WAIT_DEPTH = 32

/** What the scheduler needs to keep the order. */
export interface CreationOrder {
  /** The create each create waits for: the one planned just before it in the same topic. */
  after: Map<string, string>
  /** Creates to make provisionally as soon as their turn comes: their link waits would close a cycle or run too deep. */
  provisionalFirst: Set<string>
}

/**
 * How deep link waits may chain in a run of `tasks` documents at
 * `concurrency`: no deeper than half the rounds the run takes anyway, so a
 * chain never outlasts the rest of the work (a chain of 12,000 articles at
 * 8 requests is created in 16 parallel stretches, for 16 more requests).
 */
export function waitDepthLimit(tasks: number, concurrency: number): number {
  return Math.max(MIN_WAIT_DEPTH, Math.ceil(tasks / (2 * Math.max(1, concurrency))))
}

/**
 * The order waits of the creates of `ops` (in plan order), and the creates
 * to make provisionally so that no wait is circular or deeper than
 * `depthLimit`. `parentOf` gives a document's parent topic key.
 */
export function creationOrder(
  ops: readonly PlanOp[],
  byPath: Readonly<Record<string, LocalNode>>,
  parentOf: (node: LocalNode) => string,
  depthLimit = Number.POSITIVE_INFINITY
): CreationOrder {
  const creates = ops.filter((op) => op.op === 'create').map((op) => op.path)
  const index = new Map(creates.map((path, position) => [path, position]))
  const after = new Map<string, string>()
  const last = new Map<string, string>()
  const graph: {structural: number[][]; links: number[][]} = {structural: [], links: []}
  const positions = (keys: string[]) => keys.flatMap((key) => index.get(key) ?? [])
  for (const path of creates) {
    const node = byPath[path]!
    const parent = parentOf(node)
    const previous = last.get(parent)
    const topic = byPath[parent]
    if (previous !== undefined && topic?.kind === 'topic' && topic.ordered) after.set(path, previous)
    last.set(parent, path)
    graph.structural.push(positions(structuralWaitsOf(parent, after.get(path))))
    graph.links.push(positions(linkWaitsOf(node)))
  }
  const broken = provisionalNodes(graph satisfies WaitGraph, depthLimit)
  const provisionalFirst = new Set([...broken].sort((a, b) => a - b).map((position) => creates[position]!))
  return {after, provisionalFirst}
}

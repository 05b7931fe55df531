/**
 * What a scan learns by parsing one body (its conversion messages, local
 * references, external URLs, whether it converts to nothing), as plain
 * data: the same facts the body cache keeps; and the tree push renders.
 * The conversion pool (`src/workers/`) runs both parses on another core:
 * `bodyFactsInPool` (only the facts come back), `bodyTreeInPool` (the
 * tree, marked and without positions, as `bodyTree` keeps it).
 */
import type {Root} from 'mdast'
import type {BodyFacts} from './body-cache.js'
import {dropPositions, parseMarkedBody, toKbTree} from './markdown.js'
import type {Resolved} from './references.js'
import type {LocalNode} from './types.js'
import {collectLocalRefs} from './references.js'
import {externalUrlsOf} from './external-urls.js'
import {isBlankTree} from './blank-pages.js'
import {conversionPool} from '../workers/index.js'

/** Parses the GFM body `body` of `file` to the dialect tree push renders, with its facts. */
export function parseBodyFacts(body: string, file: string): {facts: BodyFacts; tree: Root} {
  const {tree, messages} = toKbTree(body, file)
  const facts: BodyFacts = {
    messages,
    refs: collectLocalRefs(tree),
    urls: externalUrlsOf(tree),
    ...(isBlankTree(tree) ? {blank: true as const} : {})
  }
  return {facts, tree}
}

/** The body to parse where the pool runs it: its text, and the file it is the body of. */
export interface PushBodyRequest {
  body: string
  file: string
}

/** The facts of one body (the pool's task `pushBody`; the tree stays in the worker). */
export function pushBodyTask(request: PushBodyRequest): BodyFacts {
  return parseBodyFacts(request.body, request.file).facts
}

/**
 * The facts of the body `body` of `file`, parsed on the process's
 * conversion pool (another core; in this thread when it has no workers).
 * Rejects when the worker parsing it died (`WorkerDiedError`: that body
 * alone) or the pool was closed (`PoolClosedError`: the run is stopping).
 */
export async function bodyFactsInPool(body: string, file: string): Promise<BodyFacts> {
  return (await conversionPool().run('pushBody', {body, file} satisfies PushBodyRequest)) as BodyFacts
}

/** A body to parse into the tree push renders: its text, file, and references as the scan resolved them. */
export interface PushTreeRequest extends PushBodyRequest {
  resolutions?: ReadonlyArray<Resolved | null>
}

/** The tree `bodyTree` keeps for a body (the pool's task `pushTree`): marked, positions dropped. */
export function pushTreeTask(request: PushTreeRequest): Root {
  const tree = parseMarkedBody(request.body, request.file, request.resolutions)
  dropPositions(tree)
  return tree
}

/**
 * Parses the body of `node` on the conversion pool and keeps its tree on
 * the node, as `bodyTree` would in this thread (a look-ahead: the render
 * then finds it). Nothing when the node has its tree or no body; rejects as
 * `bodyTree` throws, or when the worker died or the pool closed.
 */
export async function bodyTreeInPool(node: LocalNode): Promise<void> {
  if (node.tree || node.body === undefined) return
  const request: PushTreeRequest = {
    body: node.body,
    file: node.file ?? node.path,
    ...(node.resolutions ? {resolutions: node.resolutions} : {})
  }
  const tree = (await conversionPool().run('pushTree', request)) as Root
  // The body may have been parsed here meanwhile (a write that could not wait): the first tree stays.
  node.tree ??= tree
}

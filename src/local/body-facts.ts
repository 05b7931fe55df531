/**
 * What a scan learns by parsing one body (its conversion messages, local
 * references, external URLs, whether it converts to nothing), as plain
 * data: the same facts the body cache keeps; and the tree push renders.
 * The scan parses in the main thread: a worker beside it on a 2-core machine
 * made biome-docs' push slower, not faster (a worker's parse waits for the
 * main thread to take its answer, and both share the cores with the server).
 */
import type {Root} from 'mdast'
import type {BodyFacts} from './body-cache.js'
import {toKbTree} from './markdown.js'
import {collectLocalRefs} from './references.js'
import {externalUrlsOf} from './external-urls.js'
import {isBlankTree} from './blank-pages.js'

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

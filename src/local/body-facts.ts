/**
 * What a scan learns by parsing one body (its conversion messages, local
 * references, external URLs, whether it converts to nothing), as plain
 * data: the same facts the body cache keeps; and the tree push renders.
 * The scan parses in the main thread: a worker beside it on a 2-core machine
 * made biome-docs' push slower, not faster (a worker's parse waits for the
 * main thread to take its answer, and both share the cores with the server).
 *
 * A pull proves each body it writes by parsing it as push will; the check
 * after the pull scans the same bytes again. The proof hands its facts
 * over (`handOverFacts`), keyed like the scan's body key (the file and the
 * exact body text the scan cuts out of the file), and the scan takes them
 * instead of parsing (`takeHandedOver`). The facts are a pure function of
 * that key, so a hit is exact; a body changed in between has another key
 * and is parsed as ever. The tree that parse made is handed over too, for
 * a bounded number of bodies (`reserveHandedTree`): the check renders it
 * instead of parsing the body again.
 */
import type {Root} from 'mdast'
import type {BodyFacts} from './body-cache.js'
import {sha256} from './hash.js'
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

let scanned = 0

/** `parseBodyFacts` for a scan, counted (`scanParses`). */
export function parseForScan(body: string, file: string): {facts: BodyFacts; tree: Root} {
  scanned++
  return parseBodyFacts(body, file)
}

/** How many bodies the scans of this process parsed (not read from a cache, a hand-over or a pattern): tests watch it. */
export function scanParses(): number {
  return scanned
}

/** The key of the body `body` (as the scan cuts it out of the file) of `file`: the body cache's and the hand-over's. */
export function bodyKeyOf(file: string, body: string): string {
  return sha256(file + '\0' + body)
}

/** Facts handed over, at most: a pull's check takes them all, but a run that fails before its check must not pile them up. */
export const handedOverMax = 100_000

/**
 * Trees handed over, at most: a tree of a 2-4 KB article holds about 30 KB
 * of heap, kept from the write to the check, so a large pull holds a few
 * MB more, not a tree per document; a pull of fewer documents parses none again.
 */
export const handedTreesMax = 512

/** What a parse of one body found, handed over: its facts, and (within the bound) its tree. */
export interface HandedOver {
  facts: BodyFacts
  /** The tree `parseBodyFacts` made (positions dropped, references not marked), the taker's own. */
  tree?: Root
}

const handedOver = new Map<string, HandedOver>()
let treesReserved = 0

/**
 * Whether a tree may be handed over (then counted): asked before a parse
 * whose tree would be kept, so at most `handedTreesMax` are, until the check
 * is over (`forgetHandedOver`).
 */
export function reserveHandedTree(): boolean {
  if (treesReserved >= handedTreesMax) return false
  treesReserved++
  return true
}

/** Offers the facts (and the tree) of the body whose key (`bodyKeyOf`) is `key` to the next scan that reads it. */
export function handOverFacts(key: string, facts: BodyFacts, tree?: Root): void {
  if (handedOver.size >= handedOverMax) handedOver.delete(handedOver.keys().next().value!)
  handedOver.set(key, tree ? {facts, tree} : {facts})
}

/** What was handed over for `key`, taken (a second scan parses); undefined when nothing was. */
export function takeHandedOver(key: string): HandedOver | undefined {
  const handed = handedOver.get(key)
  if (handed !== undefined) handedOver.delete(key)
  return handed
}

/** Forgets everything handed over and not taken (the check is over). */
export function forgetHandedOver(): void {
  handedOver.clear()
  treesReserved = 0
}

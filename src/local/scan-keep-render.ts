/**
 * A push renders every body it writes, and the scan has just parsed most of
 * them: parsing each again before its write doubled the push's heaviest
 * work and the garbage it leaves. The scan offers each tree it parses to
 * its caller, which may keep what rendering needs without the tree (a
 * push keeps the whole render with its link ids left out, a few KB of text
 * per article, where a tree weighs about ten times that); the scan then
 * holds no tree for the body.
 */
import type {Root} from 'mdast'
import type {BodyFacts} from './body-cache.js'
import {markLocalRefs, type Resolved} from './references.js'
import type {LocalNode} from './types.js'

/**
 * Offered a tree the scan has just parsed for `node` (its references marked
 * with `node.resolutions`); returns whether it kept what rendering the body
 * needs without the tree (a push keeps the whole render with its link ids
 * left out: `sync/push/scan-templates.ts`), so that the body is not parsed a
 * second time before its write and the scan holds no tree for it. Called
 * synchronously: the tree is the callee's only during the call. A tree
 * offered lives until its references are resolved (file-system checks,
 * while other bodies are parsed), so its positions are dropped at once:
 * with them, most such trees outlived the young generation (the scan of
 * 1,000 articles promoted 432 KB per article to the old space, 151 KB
 * without them).
 */
export type KeepRender = (node: LocalNode, tree: Root) => boolean

/**
 * Whether `keepRender` kept the render of the freshly parsed `tree` of
 * `node` (then the tree is not kept). A blank body is not offered: the scan
 * replaces it with a page of its own text.
 */
export function renderKept(
  node: LocalNode,
  tree: Root,
  facts: BodyFacts,
  resolutions: Array<Resolved | null>,
  keepRender: KeepRender | undefined
): boolean {
  if (!keepRender || facts.blank) return false
  markLocalRefs(tree, resolutions)
  node.resolutions = resolutions
  return keepRender(node, tree)
}

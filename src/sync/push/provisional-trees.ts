/**
 * The trees of provisionally created documents. A link-heavy tree creates
 * most of its documents provisionally (with their own text, links to
 * documents not created yet as text), and each then waits for the documents
 * it links to before its whole write: keeping every such tree would make a
 * push hold the trees of much of the folder at once.
 */
import {releaseBody, type LocalNode} from '../../local/index.js'
import {releaseRender} from '../shared/render.js'
import type {RunState} from './item-step.js'

/**
 * Provisionally created documents that keep their parsed tree until their
 * whole write, at most: a link-heavy tree creates most of its documents so,
 * and each waits for the documents it links to. Beyond this, one lets go of
 * its tree and body, and its write reads and parses it again.
 */
export const provisionalTreesMax = 256

/** After a provisional create: keeps the tree of `node` for its whole write while few do, else lets go of it. */
export function keepOrRelease(run: RunState, node: LocalNode): void {
  if (run.provisionalTrees.size < provisionalTreesMax) {
    run.provisionalTrees.add(node.path)
    return
  }
  releaseRender(node)
  releaseBody(node)
}

/**
 * The trees of provisionally created documents. A link-heavy tree creates
 * most of its documents provisionally (with their own text, links to
 * documents not created yet as text), and each then waits for the documents
 * it links to before its whole write: keeping every such tree would make a
 * push hold the trees of much of the folder at once.
 */
import {releaseBody, TreeBudget, treeNodes, type LocalNode} from '../../local/index.js'
import {releaseRender} from '../shared/render.js'
import type {RunState} from './item-step.js'

/**
 * Provisionally created documents that keep their parsed tree until their
 * whole write, at most (and at most `keptTreeNodesMax` nodes together: an
 * article of hundreds of links weighs several plain ones). Beyond this, one
 * lets go of its tree and body, and its write reads and parses it again.
 */
export const provisionalTreesMax = 256

/** The budget of the trees provisional documents keep in one run. */
export function provisionalTrees(): TreeBudget {
  return new TreeBudget()
}

/** After a provisional create: keeps the tree of `node` for its whole write while it fits, else lets go of it. */
export function keepOrRelease(run: RunState, node: LocalNode): void {
  const kept = run.provisionalTrees
  if (node.tree && kept.size < provisionalTreesMax && kept.keep(node.path, treeNodes(node.tree))) return
  releaseRender(node)
  releaseBody(node)
}

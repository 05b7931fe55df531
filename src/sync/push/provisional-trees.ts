/**
 * What provisionally created documents keep until their whole write. A
 * link-heavy tree creates most of its documents provisionally (with their
 * own text, links to documents not created yet as text), and each then
 * waits for the documents it links to before its whole write: keeping every
 * such tree would make a push hold the trees of much of the folder at once,
 * and parsing each body again for its whole write cost a second parse per
 * document. Each keeps the template of its whole render instead
 * (`render-slots.ts`: the text with its link ids left out, a tenth of the
 * tree's weight), which the whole write fills in without a parse; past the
 * templates' budget, its tree while that fits; else nothing.
 */
import {releaseBody, TreeBudget, treeNodes, type LocalNode} from '../../local/index.js'
import {releaseRender, renderTemplate, type RenderContext} from '../shared/render.js'
import {holdTemplate, templateWeight} from '../shared/render-slots.js'
import type {RunState} from './item-step.js'

/**
 * Provisionally created documents that keep their parsed tree until their
 * whole write, at most (and at most `keptTreeNodesMax` nodes together: an
 * article of hundreds of links weighs several plain ones). Beyond this, one
 * lets go of its tree and body, and its write reads and parses it again.
 */
export const provisionalTreesMax = 256

/**
 * Characters the templates of provisional documents hold together, at most:
 * 2,400 articles of 300 links (13 KB each), 10,000 plain ones. A template
 * weighs its text; a tree, some 200 bytes per node.
 */
export const provisionalTemplateCharsMax = 32_000_000

/** What the provisional documents of one run hold, each within its budget. */
export class ProvisionalHold {
  /** Trees, by nodes. */
  readonly trees = new TreeBudget()
  /** Templates of whole renders, by characters. */
  readonly templates: TreeBudget

  /** `templateChars`: the characters templates may hold together. */
  constructor(templateChars = provisionalTemplateCharsMax) {
    this.templates = new TreeBudget(templateChars)
  }

  /** The document at `path` is written whole: what it held goes to the next. */
  release(path: string): void {
    this.trees.release(path)
    this.templates.release(path)
  }
}

/** The budgets of what provisional documents hold in one run. */
export function provisionalTrees(): ProvisionalHold {
  return new ProvisionalHold()
}

/**
 * After a provisional create (its tree at hand, parsed for that render):
 * keeps the template of the whole render of `node` with `context` while it
 * fits, else its tree while that fits, else lets go of both (and of its body).
 */
export function keepOrRelease(run: RunState, node: LocalNode, context: RenderContext): void {
  const held = run.provisionalTrees
  const template = renderTemplate(node, context)
  if (template && held.templates.keep(node.path, templateWeight(template))) {
    releaseRender(node)
    releaseBody(node)
    holdTemplate(node, template)
    return
  }
  if (node.tree && held.trees.size < provisionalTreesMax && held.trees.keep(node.path, treeNodes(node.tree))) return
  releaseRender(node)
  releaseBody(node)
}

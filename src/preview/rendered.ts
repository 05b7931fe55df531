/**
 * The rendered bodies of the preview, kept between rescans: a document's
 * HTML is rendered again only when what it is made of changed (its body,
 * what its local links and files resolved to, or where the documents its
 * `kb_id` links name live). A save re-renders the saved page, not the tree.
 */
import type {LocalNode} from '../local/index.js'
import {renderBody} from './html.js'
import type {PreviewModel} from './model.js'

/** What a rendered body depends on, beyond the body text itself. */
interface Rendered {
  bodyKey: string | undefined
  resolutions: string
  kbIds: string
  html: string
}

/** The rendered bodies by document path. */
export class RenderedBodies {
  #byPath = new Map<string, Rendered>()
  #kbIds = new WeakMap<PreviewModel, string>()

  /** The body of `node` in `model` as HTML: the kept rendering when its inputs held, else a fresh one. */
  html(node: LocalNode, model: PreviewModel): string {
    const kbIds = this.#kbIdsOf(model)
    const resolutions = JSON.stringify(node.resolutions ?? [])
    const kept = this.#byPath.get(node.path)
    if (
      kept &&
      node.bodyKey !== undefined &&
      kept.bodyKey === node.bodyKey &&
      kept.resolutions === resolutions &&
      kept.kbIds === kbIds
    )
      return kept.html
    const html = renderBody(node, model)
    this.#byPath.set(node.path, {bodyKey: node.bodyKey, resolutions, kbIds, html})
    return html
  }

  /** Forgets the renderings of documents `model` no longer has. */
  prune(model: PreviewModel): void {
    for (const key of this.#byPath.keys()) if (!Object.hasOwn(model.byPath, key)) this.#byPath.delete(key)
  }

  /** Number of kept renderings. */
  get size(): number {
    return this.#byPath.size
  }

  /** Where each `kb_id` points in `model` (a `kb_id` link's address depends on it), computed once per model. */
  #kbIdsOf(model: PreviewModel): string {
    let key = this.#kbIds.get(model)
    if (key === undefined) {
      key = JSON.stringify([...model.byKbId].map(([id, node]) => [id, node.kind, node.path]))
      this.#kbIds.set(model, key)
    }
    return key
  }
}

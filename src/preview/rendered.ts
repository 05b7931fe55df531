/**
 * The rendered bodies of the preview, kept between rescans: a document's
 * HTML is rendered again only when what it is made of changed (its body,
 * what its local links and files resolved to, or where the documents its
 * `kb_id` links name live). A save re-renders the saved page, not the tree.
 * Only the pages shown last are kept (least recently shown dropped first),
 * so a folder of 30,000 documents does not keep 30,000 pages of HTML.
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

/** Pages kept by default: a reader's session of pages, not the folder. */
export const renderedPagesKept = 200

/** The rendered bodies by document path, the last `limit` shown. */
export class RenderedBodies {
  #byPath = new Map<string, Rendered>()
  #kbIds = new WeakMap<PreviewModel, string>()

  constructor(private readonly limit = renderedPagesKept) {}

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
    ) {
      this.#keep(node.path, kept)
      return kept.html
    }
    const parsed = node.tree !== undefined
    const html = renderBody(node, model)
    // The tree parsed to render the page is let go: the HTML is what is kept, for the pages shown last.
    if (!parsed) delete node.tree
    this.#keep(node.path, {bodyKey: node.bodyKey, resolutions, kbIds, html})
    return html
  }

  /** Keeps `rendered` as the most recently shown, dropping the least recently shown beyond the limit. */
  #keep(key: string, rendered: Rendered): void {
    this.#byPath.delete(key)
    this.#byPath.set(key, rendered)
    for (const oldest of this.#byPath.keys()) {
      if (this.#byPath.size <= this.limit) break
      this.#byPath.delete(oldest)
    }
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

/**
 * The pages shown while the folder is still being read in the background:
 * each from a model of its own, a fresh listing with only that page's body
 * read (`ModelSource.focused`). The last few are kept until the folder
 * changes, so a page and the fragment its script fetches build once.
 */
import type {ModelSource, PreviewModel} from './model.js'

/** Models of single pages, the last `limit` kept (least recently used dropped first). */
export class FocusedModels {
  #kept = new Map<string, Promise<PreviewModel>>()

  constructor(
    private readonly source: ModelSource,
    private readonly limit = 16
  ) {}

  /** The model with the bodies of `files` read: kept, or built now. */
  model(files: readonly string[]): Promise<PreviewModel> {
    const key = JSON.stringify([...files].sort())
    let model = this.#kept.get(key)
    if (model) this.#kept.delete(key)
    else {
      model = this.source.focused(files)
      // A failed build is not kept: the next request tries again (after the author fixed the file, say).
      model.catch(() => this.#kept.get(key) === model && this.#kept.delete(key))
    }
    this.#kept.set(key, model)
    for (const oldest of this.#kept.keys()) {
      if (this.#kept.size <= this.limit) break
      this.#kept.delete(oldest)
    }
    return model
  }

  /** Forgets every kept model (a file changed: the next page is read afresh). */
  clear(): void {
    this.#kept.clear()
  }
}

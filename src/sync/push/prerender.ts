/**
 * Rendering ahead: while every request slot is taken, the documents next in
 * line wait only for a free slot, and their bodies can already be rendered.
 * Doing it then, one body per turn of the event loop, uses the time the
 * thread would spend waiting for answers; when a slot frees, the write finds
 * its body in `renderBody`'s memo and goes out at once instead of after a
 * parse and a serialisation.
 */
import {bodyTree, hasBody, readBodyAgain, type LocalNode} from '../../local/index.js'
import {renderBody, renderKey, type RenderContext} from '../shared/render.js'
import {heldTemplate} from '../shared/render-slots.js'

/** Renders offered documents in the background, one per event-loop turn. */
export class Prerenderer {
  private queue: LocalNode[] = []
  private scheduled = false
  private stopped = false

  /** `dir`: the scanned folder, whose files give the bodies a plan let go of. */
  constructor(
    private readonly context: RenderContext,
    private readonly dir: string
  ) {}

  /**
   * Replaces the documents to render ahead (the next ones to be written, in
   * order). Only those whose every link id and file URL is known are
   * rendered (the others would render with placeholders); the others are
   * parsed.
   */
  offer(nodes: readonly LocalNode[]): void {
    if (this.stopped) return
    this.queue = nodes.filter(hasBody)
    this.schedule()
  }

  /** Drops what is left; nothing renders after this. */
  stop(): void {
    this.stopped = true
    this.queue = []
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0) return
    this.scheduled = true
    // setImmediate runs after the poll phase: answers that arrived meanwhile are handled before each render.
    setImmediate(() => {
      this.scheduled = false
      this.renderNext()
      this.schedule()
    })
  }

  private renderNext(): void {
    const node = this.queue.shift()
    if (!node) return
    try {
      // A template renders without the body or its tree: it waits for the ids alone.
      const template = heldTemplate(node) !== undefined
      if (!template) readBodyAgain(this.dir, node)
      const key = renderKey(node, this.context)
      if (key !== undefined) renderBody(node, this.context, key)
      else if (template) return
      // An id or a file URL it needs is not known yet (a document that uploads its own files learns their URLs only
      // when it writes): parse it now, so that only the rewrite and the serialisation are left for then.
      else bodyTree(node)
    } catch {
      // Thrown here, outside any step, it would end the process. Its write reads and renders it again and fails with its name.
    }
  }
}

/**
 * The stack of open tags both pairings (phrasing and flow) share, kept so
 * that pairing costs linear time whatever the tags:
 *
 * - Content is never copied from frame to frame. A frame's open tag sits in
 *   one flat output list and its content follows it there, so a frame left
 *   unclosed costs nothing (its tag and content are already where they
 *   stay), one kept as written costs its close tag, and one closed into a
 *   construct takes its content out once, into the construct. A node is
 *   thus moved at most once.
 * - Closing tags find their frame through a count of the open frames by
 *   name: a closing tag with no frame of its name costs O(1), and the frames
 *   passed over to reach one are popped, so each is passed once.
 */
import type {Html} from 'mdast'
import type {KbTag} from '../syntax/tag.js'

/** An open tag: its tag, its `html` node, and where that node sits in the output. */
export interface Frame {
  tag: KbTag
  open: Html
  /** Index of `open` in the output list; the frame's content follows it. */
  start: number
}

/** The open frames, innermost last, with a count of them by tag name. */
export class TagStack<F extends Frame> {
  readonly frames: F[] = []
  readonly #counts = new Map<string, number>()

  /** The innermost frame, if any. */
  get top(): F | undefined {
    return this.frames[this.frames.length - 1]
  }

  /** Open a frame (its open tag already pushed at `frame.start`). */
  push(frame: F): void {
    this.frames.push(frame)
    this.#counts.set(frame.tag.name, (this.#counts.get(frame.tag.name) ?? 0) + 1)
  }

  /** Close the innermost frame. */
  pop(): F | undefined {
    const frame = this.frames.pop()
    if (frame) this.#counts.set(frame.tag.name, (this.#counts.get(frame.tag.name) as number) - 1)
    return frame
  }

  /**
   * Whether a frame named `name` is open. The caller then pops down to it,
   * so the frames passed over are paid for once.
   */
  has(name: string): boolean {
    return (this.#counts.get(name) ?? 0) > 0
  }
}

/** Take the content of `frame` (everything after its open tag) and its open tag out of `out`. */
export function takeContent<T>(out: T[], frame: Frame): T[] {
  const content = out.slice(frame.start + 1)
  out.length = frame.start
  return content
}

/** Push `items` onto `list` one by one (spreading a huge list as call arguments overflows the stack). */
export function append<T>(list: T[], items: readonly T[]): void {
  for (const item of items) list.push(item)
}

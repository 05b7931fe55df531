/**
 * `kbTreeToGfm` that also tells where each link and image starts in the
 * Markdown it writes: the line and column a parse of that Markdown gives
 * the node, as mdast-util-to-markdown tracks them (`info.now`). A pull
 * whose body is in the proven class (`src/sync/shared/proven-body.ts`)
 * takes its links' places from here instead of parsing what it wrote.
 */
import type {Image, Link, Root} from 'mdast'
import type {Handle, Info} from 'mdast-util-to-markdown'
import {gfmHandler, gfmMarkdown} from './index.js'

/** Where a link or image of the written tree starts (1-based, as mdast positions). */
export interface WrittenAt {
  line: number
  column: number
}

/** What `kbTreeToGfmTracked` answers: the Markdown, and where each link and image node was written. */
export interface TrackedGfm {
  markdown: string
  at: Map<Link | Image, WrittenAt>
}

/**
 * The Markdown of `kbTreeToGfm(tree)` (default URLs), with the place of
 * each link and image node of `tree` written. A handler may run on a node
 * ahead of its turn (a look-ahead at the next sibling's first character):
 * the last run is the one written.
 */
export function kbTreeToGfmTracked(tree: Root): TrackedGfm {
  const at = new Map<Link | Image, WrittenAt>()
  const tracked = (base: Handle & {peek?: Handle}): Handle => {
    const handle: Handle = (node: Link | Image, parent, state, info: Info) => {
      at.set(node, {line: info.now.line, column: info.now.column})
      return base(node, parent, state, info)
    }
    // The look-ahead at a node's first character stays the writer's own (it writes nothing).
    return base.peek ? Object.assign(handle, {peek: base.peek}) : handle
  }
  const markdown = gfmMarkdown(
    tree,
    {},
    {handlers: {link: tracked(gfmHandler('link')), image: tracked(gfmHandler('image'))}}
  )
  return {markdown, at}
}

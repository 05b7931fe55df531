/**
 * draw.io files in the authoring form: a paragraph that holds nothing but a
 * link or an image to a local `.drawio` (or `.drawio.svg`, `.drawio.png`)
 * file becomes the dialect's diagram, `<iframe data-node=drawio src width>`,
 * still pointing at the local file (the sync engine uploads it and puts the
 * file's URL in `src`). A link among other text stays a link (to the
 * uploaded file). The width is the image's when it has one (`<img width>`),
 * else `defaultDrawioWidth`.
 */
import type {Image, Link, Paragraph, Parents, Root} from 'mdast'
import type {Drawio} from '../../../plugins/types.js'
import {isLocalDrawio} from '../local-url.js'
import {walk, SKIP} from './walk.js'

// Also wanted where the folder's references are resolved (src/local).
export {isDrawioPath} from '../local-url.js'

/** The width of a diagram whose link or image gives none, in pixels (about the platform's text column). */
export const defaultDrawioWidth = 800

/** The link or image a paragraph holds alone (whitespace around it aside), when it names a local draw.io file. */
function soleDrawioReference(paragraph: Paragraph): Link | Image | undefined {
  const content = paragraph.children.filter((child) => !(child.type === 'text' && child.value.trim() === ''))
  const only = content.length === 1 ? content[0] : undefined
  if (!only || (only.type !== 'link' && only.type !== 'image')) return undefined
  return isLocalDrawio(only.url) ? only : undefined
}

/** Replaces each paragraph that is only a link or image to a local draw.io file by a `drawio` node (in place). */
export function drawioLinksToDiagrams(tree: Root): void {
  walk(tree, (node, index, parent: Parents) => {
    if (node.type !== 'paragraph') return undefined
    const reference = soleDrawioReference(node)
    if (!reference) return SKIP
    const width = reference.type === 'image' && reference.width !== undefined ? reference.width : defaultDrawioWidth
    const diagram: Drawio = {
      type: 'drawio',
      url: reference.url,
      width,
      ...(node.position ? {position: node.position} : {})
    }
    parent.children.splice(index, 1, diagram as never)
    return SKIP
  })
}

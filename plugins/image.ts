/** Sized image `<img src alt width height>`; plain images stay `![alt](url)`. */
import type {Image} from 'mdast'
import {defaultHandlers, type Options} from 'mdast-util-to-markdown'
import type {KbConstruct, PhrasingEntry} from './construct.js'
import {constructPlugin} from './register.js'
import {attribute, withPeek, type KbHandle} from './tag-writer.js'
import {sizeAttribute} from './transform/tags.js'

/** `<img src alt width height>`: an image, its sizes in whole pixels. */
const entry: PhrasingEntry = {
  tag: 'img',
  leaf(tag, html, problems) {
    // The tag has `src`: an `<img>` without it is not the dialect's (`isDialectTag`).
    const image: Image = {type: 'image', url: tag.attributes.src, title: null, alt: tag.attributes.alt ?? ''}
    const width = sizeAttribute(tag, 'width', html.position, problems)
    const height = sizeAttribute(tag, 'height', html.position, problems)
    if (width !== undefined) image.width = width
    if (height !== undefined) image.height = height
    if (html.position) image.position = html.position
    return image
  }
}

const isPlain = (node: Image) => node.width === undefined && node.height === undefined

const image: KbHandle = withPeek(
  (node: Image, parent, state, info) => {
    if (isPlain(node)) return defaultHandlers.image(node, parent, state, info)
    return `<img${attribute('src', node.url)}${attribute('alt', node.alt ?? '')}${attribute('width', node.width)}${attribute('height', node.height)}>`
  },
  // `![alt](url)` or `<img ...>`.
  (node: Image) => (isPlain(node) ? '!' : '<')
)

/** to-markdown extension for sized images. */
export function imageToMarkdown(): Options {
  return {handlers: {image}}
}

/** The sized image construct: how its tag is read and how it is written. */
export const imageConstruct: KbConstruct = {name: 'image', phrasing: [entry], toMarkdown: imageToMarkdown()}

/** remark plugin: the dialect's sized images. */
export const remarkKbImage = constructPlugin(imageConstruct)

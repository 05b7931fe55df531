/** Sized image `<img src alt width height>`; plain images stay `![alt](url)`. */
import type {Image} from 'mdast'
import {defaultHandlers, type Options} from 'mdast-util-to-markdown'
import {attribute, registerKb, withPeek, type KbHandle} from './util.js'

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

/** remark plugin: the dialect's sized images. */
export function remarkKbImage(this: any) {
  return registerKb(this, [imageToMarkdown()])
}

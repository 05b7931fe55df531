/** draw.io diagram `<iframe data-node=drawio src=URL width=N></iframe>`. */
import type {Options} from 'mdast-util-to-markdown'
import {reject, type FlowEntry, type KbConstruct} from './construct.js'
import {constructPlugin} from './register.js'
import {attribute, type KbHandle} from './tag-writer.js'
import {sizeAttribute} from './transform/tags.js'
import type {Drawio} from './types.js'

/** `<iframe data-node=drawio>`: a `src`, no content, a width in whole pixels if any. */
const entry: FlowEntry = {
  tag: 'iframe',
  node: 'drawio',
  close({tag, open, output, from, problems}) {
    const url = tag.attributes.src
    if (url === undefined || output.length !== from)
      return reject('A diagram needs `src` and no content', 'kb-invalid-content')
    const width = sizeAttribute(tag, 'width', open.position, problems)
    return width === undefined ? {type: 'drawio', url} : {type: 'drawio', url, width}
  }
}

const drawio: KbHandle = (node: Drawio) =>
  `<iframe data-node="drawio"${attribute('src', node.url)}${attribute('width', node.width)}></iframe>`

/** to-markdown extension for `drawio`. */
export function drawioToMarkdown(): Options {
  return {handlers: {drawio}}
}

/** The diagram construct: how its tags are paired and how it is written. */
export const drawioConstruct: KbConstruct = {name: 'drawio', flow: [entry], toMarkdown: drawioToMarkdown()}

/** remark plugin: the dialect's draw.io diagrams. */
export const remarkKbDrawio = constructPlugin(drawioConstruct)

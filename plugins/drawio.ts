/** draw.io diagram `<iframe data-node=drawio src=URL width=N></iframe>`. */
import type {Options} from 'mdast-util-to-markdown'
import type {Drawio} from './types.js'
import {attribute, registerKb, type KbHandle} from './util.js'

const drawio: KbHandle = (node: Drawio) =>
  `<iframe data-node="drawio"${attribute('src', node.url)}${attribute('width', node.width)}></iframe>`

/** to-markdown extension for `drawio`. */
export function drawioToMarkdown(): Options {
  return {handlers: {drawio}}
}

/** remark plugin: the dialect's draw.io diagrams. */
export function remarkKbDrawio(this: any) {
  return registerKb(this, [drawioToMarkdown()])
}

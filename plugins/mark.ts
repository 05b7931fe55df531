/** Colour highlight `<mark data-color=TOKEN>…</mark>`. */
import type {Options} from 'mdast-util-to-markdown'
import type {KbConstruct, PhrasingEntry} from './construct.js'
import {constructPlugin} from './register.js'
import {attribute, withPeek, wrapPhrasing, type KbHandle} from './tag-writer.js'
import {colorOf} from './transform/tags.js'
import type {Mark} from './types.js'

/** `<mark data-color=TOKEN>`: a valid colour token. */
const entry: PhrasingEntry = {
  tag: 'mark',
  close({tag, take}) {
    const color = colorOf(tag)
    if (typeof color !== 'string') return color
    return {type: 'mark', color, children: take()}
  }
}

const mark: KbHandle = withPeek((node: Mark, _, state, info) =>
  wrapPhrasing(node, state, info, `<mark${attribute('data-color', node.color)}>`, '</mark>')
)

/** to-markdown extension for `mark`. */
export function markToMarkdown(): Options {
  return {handlers: {mark}}
}

/** The highlight construct: how its tags are paired and how it is written. */
export const markConstruct: KbConstruct = {name: 'mark', phrasing: [entry], toMarkdown: markToMarkdown()}

/** remark plugin: the dialect's colour highlight. */
export const remarkKbMark = constructPlugin(markConstruct)

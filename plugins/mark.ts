/** Colour highlight `<mark data-color=TOKEN>…</mark>`. */
import type {Options} from 'mdast-util-to-markdown'
import type {Mark} from './types.js'
import {attribute, registerKb, withPeek, wrapPhrasing, type KbHandle} from './util.js'

const mark: KbHandle = withPeek((node: Mark, _, state, info) =>
  wrapPhrasing(node, state, info, `<mark${attribute('data-color', node.color)}>`, '</mark>')
)

/** to-markdown extension for `mark`. */
export function markToMarkdown(): Options {
  return {handlers: {mark}}
}

/** remark plugin: the dialect's colour highlight. */
export function remarkKbMark(this: any) {
  return registerKb(this, [markToMarkdown()])
}

/** Hint block `<div data-node=hintBlock data-color=TOKEN>` holding block content. */
import type {Options} from 'mdast-util-to-markdown'
import type {HintBlock} from './types.js'
import {attribute, registerKb, wrapFlow, type KbHandle} from './util.js'

const hintBlock: KbHandle = (node: HintBlock, _, state, info) =>
  wrapFlow(node, state, info, `<div data-node="hintBlock"${attribute('data-color', node.color)}>`, '</div>')

/** to-markdown extension for `hintBlock`. */
export function hintBlockToMarkdown(): Options {
  return {handlers: {hintBlock}}
}

/** remark plugin: the dialect's hint blocks. */
export function remarkKbHintBlock(this: any) {
  return registerKb(this, [hintBlockToMarkdown()])
}

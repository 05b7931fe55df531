/** Hint block `<div data-node=hintBlock data-color=TOKEN>` holding block content. */
import type {Options} from 'mdast-util-to-markdown'
import type {FlowEntry, KbConstruct} from './construct.js'
import {constructPlugin} from './register.js'
import {attribute, wrapFlow, type KbHandle} from './tag-writer.js'
import {colorOf} from './transform/tags.js'
import type {HintBlock} from './types.js'

/** `<div data-node=hintBlock>`: a valid colour token, then any block content. */
const entry: FlowEntry = {
  tag: 'div',
  node: 'hintBlock',
  close({tag, take}) {
    const color = colorOf(tag)
    if (typeof color !== 'string') return color
    return {type: 'hintBlock', color, children: take()} as HintBlock
  }
}

/** The tag that opens a hint block of colour `color`, as the dialect writes it. */
export function hintBlockOpenTag(color: string): string {
  return `<div data-node="hintBlock"${attribute('data-color', color)}>`
}

/** The tag that closes a hint block. */
export const hintBlockCloseTag = '</div>'

const hintBlock: KbHandle = (node: HintBlock, _, state, info) =>
  wrapFlow(node, state, info, hintBlockOpenTag(node.color), hintBlockCloseTag)

/** to-markdown extension for `hintBlock`. */
export function hintBlockToMarkdown(): Options {
  return {handlers: {hintBlock}}
}

/** The hint block construct: how its tags are paired and how it is written. */
export const hintBlockConstruct: KbConstruct = {name: 'hintBlock', flow: [entry], toMarkdown: hintBlockToMarkdown()}

/** remark plugin: the dialect's hint blocks. */
export const remarkKbHintBlock = constructPlugin(hintBlockConstruct)

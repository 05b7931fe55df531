/** Underline `<u>…</u>`. */
import type {Options} from 'mdast-util-to-markdown'
import type {KbConstruct, PhrasingEntry} from './construct.js'
import {constructPlugin} from './register.js'
import {withPeek, wrapPhrasing, type KbHandle} from './tag-writer.js'
import type {Underline} from './types.js'

/** `<u>`: any phrasing content. */
const entry: PhrasingEntry = {tag: 'u', close: ({take}) => ({type: 'underline', children: take()})}

const underline: KbHandle = withPeek((node: Underline, _, state, info) =>
  wrapPhrasing(node, state, info, '<u>', '</u>')
)

/** to-markdown extension for `underline`. */
export function underlineToMarkdown(): Options {
  return {handlers: {underline}}
}

/** The underline construct: how its tags are paired and how it is written. */
export const underlineConstruct: KbConstruct = {name: 'underline', phrasing: [entry], toMarkdown: underlineToMarkdown()}

/** remark plugin: the dialect's underline. */
export const remarkKbUnderline = constructPlugin(underlineConstruct)

/** Underline `<u>…</u>`. */
import type {Options} from 'mdast-util-to-markdown'
import type {Underline} from './types.js'
import {registerKb, withPeek, wrapPhrasing, type KbHandle} from './util.js'

const underline: KbHandle = withPeek((node: Underline, _, state, info) => wrapPhrasing(node, state, info, '<u>', '</u>'))

/** to-markdown extension for `underline`. */
export function underlineToMarkdown(): Options {
  return {handlers: {underline}}
}

/** remark plugin: the dialect's underline. */
export function remarkKbUnderline(this: any) {
  return registerKb(this, [underlineToMarkdown()])
}

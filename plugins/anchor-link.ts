/** Anchor `<a data-node=anchorLink data-id=ANCHOR />`. */
import type {Options} from 'mdast-util-to-markdown'
import type {AnchorLink} from './types.js'
import {attribute, registerKb, withPeek, type KbHandle} from './util.js'

const anchorLink: KbHandle = withPeek((node: AnchorLink) => `<a data-node="anchorLink"${attribute('data-id', node.identifier)} />`)

/** to-markdown extension for `anchorLink`. */
export function anchorLinkToMarkdown(): Options {
  return {handlers: {anchorLink}}
}

/** remark plugin: the dialect's anchors. */
export function remarkKbAnchorLink(this: any) {
  return registerKb(this, [anchorLinkToMarkdown()])
}

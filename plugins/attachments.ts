/** Attachments group `<div data-node=attachmentsGroup>` of `<a data-node=attachment href=…>name</a>`. */
import type {Options} from 'mdast-util-to-markdown'
import type {Attachment, AttachmentsGroup} from './types.js'
import {safeText} from './markdown-style.js'
import {attribute, registerKb, withPeek, type KbHandle} from './util.js'

const attachment: KbHandle = withPeek(
  (node: Attachment, _, state, info) =>
    `<a data-node="attachment"${attribute('href', node.url)}>` +
    safeText(state, node.name, {...info, before: '>', after: '<'}) +
    '</a>'
)

const attachmentsGroup: KbHandle = (node: AttachmentsGroup, _, state, info) => {
  const lines = ['<div data-node="attachmentsGroup">']
  const exit = state.enter('paragraph')
  const exitPhrasing = state.enter('phrasing')
  for (const child of node.children) lines.push(attachment(child, node, state, info))
  exitPhrasing()
  exit()
  lines.push('</div>')
  return lines.join('\n')
}

/** to-markdown extension for `attachmentsGroup` and `attachment`. */
export function attachmentsToMarkdown(): Options {
  return {handlers: {attachmentsGroup, attachment}}
}

/** remark plugin: the dialect's attachment groups. */
export function remarkKbAttachments(this: any) {
  return registerKb(this, [attachmentsToMarkdown()])
}

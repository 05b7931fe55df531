/** Attachments group `<div data-node=attachmentsGroup>` of `<a data-node=attachment href=…>name</a>`. */
import type {Nodes, RootContent} from 'mdast'
import type {Options} from 'mdast-util-to-markdown'
import {reject, type FlowEntry, type KbConstruct, type PhrasingEntry} from './construct.js'
import {safeText} from './style/text.js'
import {constructPlugin} from './register.js'
import {attribute, withPeek, type KbHandle} from './tag-writer.js'
import {textOf} from './transform/tags.js'
import type {Attachment, AttachmentsGroup} from './types.js'

/** `<div data-node=attachmentsGroup>`: only attachments (and blank text between them). */
const groupEntry: FlowEntry = {
  tag: 'div',
  node: 'attachmentsGroup',
  close({output, from}) {
    const attachments = collectAttachments(output, from)
    if (!attachments) return reject('An attachments group holds only attachments', 'kb-invalid-content')
    return {type: 'attachmentsGroup', children: attachments} as AttachmentsGroup
  }
}

/** The attachments of a group whose content starts at `from` in `output`, if it holds only attachments. */
function collectAttachments(output: readonly RootContent[], from: number): Attachment[] | undefined {
  const attachments: Attachment[] = []
  for (let index = from; index < output.length; index++) {
    const child = output[index]
    if (child.type !== 'paragraph') return undefined
    for (const inline of child.children as Nodes[]) {
      if (inline.type === 'attachment') attachments.push(inline)
      else if (inline.type !== 'text' || inline.value.trim() !== '') return undefined
    }
  }
  return attachments
}

/** `<a data-node=attachment href=…>`: named by the text it holds. */
const attachmentEntry: PhrasingEntry = {
  tag: 'a',
  node: 'attachment',
  close({tag, take}) {
    const url = tag.attributes.href
    if (url === undefined) return reject('Attachment without `href`', 'kb-missing-attribute')
    return {type: 'attachment', url, name: textOf(take())}
  }
}

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

/** The attachments construct: how its tags (the group's and each attachment's) are paired and how it is written. */
export const attachmentsConstruct: KbConstruct = {
  name: 'attachmentsGroup',
  flow: [groupEntry],
  phrasing: [attachmentEntry],
  toMarkdown: attachmentsToMarkdown()
}

/** remark plugin: the dialect's attachment groups. */
export const remarkKbAttachments = constructPlugin(attachmentsConstruct)

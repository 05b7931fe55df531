/** Anchor `<a data-node=anchorLink data-id=ANCHOR />`. */
import type {Html, PhrasingContent} from 'mdast'
import type {Options} from 'mdast-util-to-markdown'
import {reject, type KbConstruct, type PhrasingEntry} from './construct.js'
import {constructPlugin} from './register.js'
import {attribute, withPeek, type KbHandle} from './tag-writer.js'
import type {KbTag} from './syntax/tag.js'
import type {KbProblem} from './transform/problems.js'
import type {AnchorLink} from './types.js'

/** The anchor of an anchor tag (self-closing, or opening a pair), placed where the tag is. */
function anchorOf(tag: KbTag, html: Html, problems: KbProblem[]): PhrasingContent | undefined {
  const identifier = tag.attributes['data-id']
  if (identifier === undefined) {
    problems.push({reason: 'Anchor without `data-id`', ruleId: 'kb-missing-attribute', place: html.position})
    return undefined
  }
  const anchor: AnchorLink = {type: 'anchorLink', identifier}
  if (html.position) anchor.position = html.position
  return anchor
}

/** Whether `output` holds anything but blank text from `from` on (stops at the first such node). */
function holdsContent(output: readonly PhrasingContent[], from: number): boolean {
  for (let index = from; index < output.length; index++) {
    const child = output[index]
    if (child.type !== 'text' || child.value.trim() !== '') return true
  }
  return false
}

/**
 * `<a data-node=anchorLink data-id=… />`, or written as a pair holding
 * nothing. An anchor holds nothing, so one left open is the anchor, and
 * what follows it stays outside.
 */
const entry: PhrasingEntry = {
  tag: 'a',
  node: 'anchorLink',
  leaf: (tag, html, problems) => (tag.selfClosing ? anchorOf(tag, html, problems) : undefined),
  close({tag, open, output, from, problems}) {
    if (holdsContent(output, from)) {
      return reject(
        'An anchor holds no content: write `<a data-node="anchorLink" data-id="…" />` and the text after it',
        'kb-invalid-content'
      )
    }
    const anchor = anchorOf(tag, open, problems)
    if (!anchor) return reject('', '')
    return anchor
  },
  unclosed: anchorOf
}

const anchorLink: KbHandle = withPeek(
  (node: AnchorLink) => `<a data-node="anchorLink"${attribute('data-id', node.identifier)} />`
)

/** to-markdown extension for `anchorLink`. */
export function anchorLinkToMarkdown(): Options {
  return {handlers: {anchorLink}}
}

/** The anchor construct: how its tags are paired and how it is written. */
export const anchorLinkConstruct: KbConstruct = {
  name: 'anchorLink',
  phrasing: [entry],
  toMarkdown: anchorLinkToMarkdown()
}

/** remark plugin: the dialect's anchors. */
export const remarkKbAnchorLink = constructPlugin(anchorLinkConstruct)

/**
 * Pairs the dialect's inline tags among the children of one phrasing parent:
 * `<u>`, `<mark>`, `<a data-node=articleLink|attachment>` become containers,
 * `<a data-node=anchorLink />` and `<img>` become leaves. A tag that cannot be
 * paired stays an `html` node (no text is ever dropped) and is reported.
 */
import type {Html, Image, PhrasingContent} from 'mdast'
import {toString} from 'mdast-util-to-string'
import {isDialectTag, type KbTag} from '../syntax/tag.js'
import type {KbProblem} from './problems.js'
import {dialectTagOf, isColor, sizeAttribute, span, tagOf} from './tags.js'

interface Frame {
  tag: KbTag
  open: Html
  children: PhrasingContent[]
  /** Plain HTML `<a href>`: paired silently, kept as HTML. */
  passthrough: boolean
}

const pairedNames = new Set(['u', 'mark', 'a'])

/** Replace the children of a phrasing parent with paired dialect nodes. */
export function pairPhrasing(children: PhrasingContent[], problems: KbProblem[]): PhrasingContent[] {
  if (!children.some((child) => child.type === 'html')) return children
  const root: PhrasingContent[] = []
  const stack: Frame[] = []
  const out = () => (stack.length > 0 ? stack[stack.length - 1].children : root)

  for (const child of children) {
    const tag = child.type === 'html' ? tagOf(child) : undefined
    if (!tag || !child || child.type !== 'html') {
      out().push(child)
      continue
    }
    const html = child
    if (tag.closing && pairedNames.has(tag.name)) {
      const index = findFrame(stack, tag.name)
      if (index === -1) {
        if (dialectTagOf(html)) problems.push({reason: `Stray closing tag \`</${tag.name}>\``, ruleId: 'kb-stray-closing-tag', place: html.position})
        out().push(html)
        continue
      }
      while (stack.length - 1 > index) unclosed(stack.pop() as Frame, out(), problems)
      const frame = stack.pop() as Frame
      out().push(...build(frame, html, problems))
      continue
    }
    if (tag.closing) {
      out().push(html)
      continue
    }
    const leaf = isDialectTag(tag) ? buildLeaf(tag, html, problems) : undefined
    if (leaf) {
      out().push(leaf)
      continue
    }
    if (pairedNames.has(tag.name) && !tag.selfClosing) {
      const passthrough = tag.name === 'a' && !('data-node' in tag.attributes)
      if (!passthrough && tag.name === 'a') {
        const kind = tag.attributes['data-node']
        if (kind !== 'articleLink' && kind !== 'attachment' && kind !== 'anchorLink') {
          problems.push({reason: `Unknown \`data-node\` value \`${kind}\``, ruleId: 'kb-unknown-node', place: html.position})
          stack.push({tag, open: html, children: [], passthrough: true})
          continue
        }
      }
      stack.push({tag, open: html, children: [], passthrough})
      continue
    }
    out().push(html)
  }

  while (stack.length > 0) unclosed(stack.pop() as Frame, out(), problems)
  return root
}

/**
 * A frame left open: its tags and content as they were, reported. An anchor
 * holds nothing, so `<a data-node="anchorLink" data-id="x">` left open is
 * the anchor, and what follows it stays outside.
 */
function unclosed(frame: Frame, out: PhrasingContent[], problems: KbProblem[]): void {
  const anchor = isAnchorTag(frame.tag) ? anchorOf(frame.tag, frame.open, problems) : undefined
  if (anchor) {
    out.push(anchor, ...frame.children)
    return
  }
  if (!frame.passthrough) problems.push({reason: `Unclosed \`<${frame.tag.name}>\``, ruleId: 'kb-unclosed-tag', place: frame.open.position})
  out.push(frame.open, ...frame.children)
}

function isAnchorTag(tag: KbTag): boolean {
  return tag.name === 'a' && tag.attributes['data-node'] === 'anchorLink'
}

/** The anchor of an anchor tag (self-closing, or opening a pair). */
function anchorOf(tag: KbTag, html: Html, problems: KbProblem[]): PhrasingContent | undefined {
  const identifier = tag.attributes['data-id']
  if (identifier === undefined) {
    problems.push({reason: 'Anchor without `data-id`', ruleId: 'kb-missing-attribute', place: html.position})
    return undefined
  }
  const anchor: PhrasingContent = {type: 'anchorLink', identifier}
  return withPosition(anchor, html.position && {position: html.position})
}

function findFrame(stack: Frame[], name: string): number {
  for (let index = stack.length - 1; index >= 0; index--) {
    if (stack[index].tag.name === name) return index
  }
  return -1
}

/** Leaves: the anchor and the sized image. */
function buildLeaf(tag: KbTag, html: Html, problems: KbProblem[]): PhrasingContent | undefined {
  if (tag.name === 'img') {
    const src = tag.attributes.src
    if (src === undefined) {
      problems.push({reason: '`<img>` without `src`', ruleId: 'kb-missing-attribute', place: html.position})
      return undefined
    }
    const image: Image = {type: 'image', url: src, title: null, alt: tag.attributes.alt ?? ''}
    const width = sizeAttribute(tag, 'width', html.position, problems)
    const height = sizeAttribute(tag, 'height', html.position, problems)
    if (width !== undefined) image.width = width
    if (height !== undefined) image.height = height
    if (html.position) image.position = html.position
    return image
  }
  if (tag.selfClosing && isAnchorTag(tag)) return anchorOf(tag, html, problems)
  return undefined
}

/** Close a frame: the construct, or its tags and content as they were. */
function build(frame: Frame, close: Html, problems: KbProblem[]): PhrasingContent[] {
  const keep = (reason: string, ruleId: string): PhrasingContent[] => {
    if (reason) problems.push({reason, ruleId, place: frame.open.position})
    return [frame.open, ...frame.children, close]
  }
  if (frame.passthrough) return keep('', '')
  const {tag, children} = frame
  const position = span(frame.open, close)
  const at = position ? {position} : undefined
  if (tag.name === 'u') return [withPosition({type: 'underline', children}, at)]
  if (tag.name === 'mark') {
    const color = tag.attributes['data-color']
    if (!isColor(color)) return keep(`Invalid colour \`${color ?? ''}\` (expected one of the 11 tokens)`, 'kb-invalid-color')
    return [withPosition({type: 'mark', color, children}, at)]
  }
  const kind = tag.attributes['data-node']
  if (kind === 'anchorLink') {
    // `<a data-node="anchorLink" data-id="x"></a>`: the anchor, written as a pair.
    if (children.some((child) => child.type !== 'text' || child.value.trim() !== '')) {
      return keep('An anchor holds no content: write `<a data-node="anchorLink" data-id="…" />` and the text after it', 'kb-invalid-content')
    }
    const anchor = anchorOf(tag, frame.open, problems)
    return anchor ? [anchor] : keep('', '')
  }
  if (kind === 'articleLink') {
    const articleId = tag.attributes['data-article-id']
    const topicId = tag.attributes['data-topic-id']
    if (articleId !== undefined && topicId !== undefined) {
      problems.push({reason: 'An article link names both `data-article-id` and `data-topic-id`: the topic id is dropped', ruleId: 'kb-invalid-attribute', place: frame.open.position})
    }
    if (articleId !== undefined) return [withPosition({type: 'articleLink', articleId, children}, at)]
    if (topicId !== undefined) return [withPosition({type: 'articleLink', topicId, children}, at)]
    return keep('Article link without `data-article-id` or `data-topic-id`', 'kb-missing-attribute')
  }
  // attachment (the only other kind a frame is opened for)
  const url = tag.attributes.href
  if (url === undefined) return keep('Attachment without `href`', 'kb-missing-attribute')
  return [withPosition({type: 'attachment', url, name: toString({type: 'paragraph', children})}, at) as unknown as PhrasingContent]
}

function withPosition<T extends object>(node: T, at: object | undefined): T {
  return at ? Object.assign(node, at) : node
}

/**
 * Pairs the dialect's inline tags among the children of one phrasing parent:
 * `<u>`, `<mark>`, `<a data-node=articleLink|attachment>` become containers,
 * `<a data-node=anchorLink />` and `<img>` become leaves. A tag that cannot be
 * paired stays an `html` node (no text is ever dropped) and is reported.
 */
import type {Html, Image, PhrasingContent} from 'mdast'
import {isDialectTag, type KbTag} from '../syntax/tag.js'
import {TagStack, takeContent, type Frame} from './pairing.js'
import type {KbProblem} from './problems.js'
import {dialectTagOf, isColor, sizeAttribute, span, tagOf, textOf} from './tags.js'

interface PhrasingFrame extends Frame {
  /** Plain HTML `<a href>`: paired silently, kept as HTML. */
  passthrough: boolean
}

const pairedNames = new Set(['u', 'mark', 'a'])

/**
 * Replace the children of a phrasing parent with paired dialect nodes, in
 * time linear in the number of children (see `pairing.ts`).
 */
export function pairPhrasing(children: PhrasingContent[], problems: KbProblem[]): PhrasingContent[] {
  if (!children.some((child) => child.type === 'html')) return children
  const out: PhrasingContent[] = []
  const stack = new TagStack<PhrasingFrame>()

  for (const child of children) {
    const tag = child.type === 'html' ? tagOf(child) : undefined
    if (!tag || child.type !== 'html') {
      out.push(child)
      continue
    }
    const html = child
    if (tag.closing && pairedNames.has(tag.name)) {
      if (!stack.has(tag.name)) {
        if (dialectTagOf(html)) problems.push({reason: `Stray closing tag \`</${tag.name}>\``, ruleId: 'kb-stray-closing-tag', place: html.position})
        out.push(html)
        continue
      }
      let frame = stack.pop() as PhrasingFrame
      while (frame.tag.name !== tag.name) {
        unclosed(frame, out, problems)
        frame = stack.pop() as PhrasingFrame
      }
      build(frame, html, out, problems)
      continue
    }
    if (tag.closing) {
      out.push(html)
      continue
    }
    const leaf = isDialectTag(tag) ? buildLeaf(tag, html, problems) : undefined
    if (leaf) {
      out.push(leaf)
      continue
    }
    if (pairedNames.has(tag.name) && !tag.selfClosing) {
      let passthrough = tag.name === 'a' && !('data-node' in tag.attributes)
      if (!passthrough && tag.name === 'a') {
        const kind = tag.attributes['data-node']
        if (kind !== 'articleLink' && kind !== 'attachment' && kind !== 'anchorLink') {
          problems.push({reason: `Unknown \`data-node\` value \`${kind}\``, ruleId: 'kb-unknown-node', place: html.position})
          passthrough = true
        }
      }
      stack.push({tag, open: html, start: out.length, passthrough})
      out.push(html)
      continue
    }
    out.push(html)
  }

  for (let frame = stack.pop(); frame; frame = stack.pop()) unclosed(frame, out, problems)
  return out
}

/**
 * A frame left open: its tag and content stay where they are, reported. An
 * anchor holds nothing, so `<a data-node="anchorLink" data-id="x">` left
 * open is the anchor, and what follows it stays outside.
 */
function unclosed(frame: PhrasingFrame, out: PhrasingContent[], problems: KbProblem[]): void {
  const anchor = isAnchorTag(frame.tag) ? anchorOf(frame.tag, frame.open, problems) : undefined
  if (anchor) {
    out[frame.start] = anchor
    return
  }
  if (!frame.passthrough) problems.push({reason: `Unclosed \`<${frame.tag.name}>\``, ruleId: 'kb-unclosed-tag', place: frame.open.position})
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
function build(frame: PhrasingFrame, close: Html, out: PhrasingContent[], problems: KbProblem[]): void {
  const keep = (reason: string, ruleId: string): void => {
    if (reason) problems.push({reason, ruleId, place: frame.open.position})
    out.push(close)
  }
  const position = span(frame.open, close)
  const at = position ? {position} : undefined
  const construct = (make: (children: PhrasingContent[]) => object): void => {
    out.push(withPosition(make(takeContent(out, frame)), at) as PhrasingContent)
  }
  if (frame.passthrough) return keep('', '')
  const {tag} = frame
  if (tag.name === 'u') return construct((children) => ({type: 'underline', children}))
  if (tag.name === 'mark') {
    const color = tag.attributes['data-color']
    if (!isColor(color)) return keep(`Invalid colour \`${color ?? ''}\` (expected one of the 11 tokens)`, 'kb-invalid-color')
    return construct((children) => ({type: 'mark', color, children}))
  }
  const kind = tag.attributes['data-node']
  if (kind === 'anchorLink') {
    // `<a data-node="anchorLink" data-id="x"></a>`: the anchor, written as a pair.
    if (holdsContent(out, frame.start + 1)) {
      return keep('An anchor holds no content: write `<a data-node="anchorLink" data-id="…" />` and the text after it', 'kb-invalid-content')
    }
    const anchor = anchorOf(tag, frame.open, problems)
    if (!anchor) return keep('', '')
    takeContent(out, frame)
    out.push(anchor)
    return
  }
  if (kind === 'articleLink') {
    const articleId = tag.attributes['data-article-id']
    const topicId = tag.attributes['data-topic-id']
    if (articleId !== undefined && topicId !== undefined) {
      problems.push({reason: 'An article link names both `data-article-id` and `data-topic-id`: the topic id is dropped', ruleId: 'kb-invalid-attribute', place: frame.open.position})
    }
    if (articleId !== undefined) return construct((children) => ({type: 'articleLink', articleId, children}))
    if (topicId !== undefined) return construct((children) => ({type: 'articleLink', topicId, children}))
    return keep('Article link without `data-article-id` or `data-topic-id`', 'kb-missing-attribute')
  }
  // attachment (the only other kind a frame is opened for)
  const url = tag.attributes.href
  if (url === undefined) return keep('Attachment without `href`', 'kb-missing-attribute')
  return construct((children) => ({type: 'attachment', url, name: textOf(children)}))
}

/** Whether `out` holds anything but blank text from `from` on (stops at the first such node). */
function holdsContent(out: PhrasingContent[], from: number): boolean {
  for (let index = from; index < out.length; index++) {
    const child = out[index]
    if (child.type !== 'text' || child.value.trim() !== '') return true
  }
  return false
}

function withPosition<T extends object>(node: T, at: object | undefined): T {
  return at ? Object.assign(node, at) : node
}

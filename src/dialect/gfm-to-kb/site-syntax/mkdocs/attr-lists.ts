/**
 * Attribute lists (Python-Markdown's `attr_list`, which MkDocs and
 * Material for MkDocs sites use everywhere; kramdown's and Docusaurus'
 * heading ids are the same syntax), where Python-Markdown reads them:
 * - at the end of a heading or a table cell: `## Title {#id}`,
 *   `### Mk { #mk-id .red }`;
 * - on the last line of a paragraph (or list item), alone:
 *   `Text\n{: .class #id}`; kramdown also writes `{: #id}` on the line
 *   under a heading, for that heading;
 * - right after an inline element: `**term**{ #id }`,
 *   `![alt](a.png){ width="300" }`, `[Start](x.md){ .md-button }`,
 *   `[](){#anchor}`.
 * The site shows no braces there. An id becomes the dialect's anchor at
 * the start of what it names (so links to it land), an image's pixel
 * `width`/`height` its size; classes and other pairs only style the page
 * and go. Braces that hold no attribute list (`{placeholder}`) or stand
 * elsewhere (`Text {#x}` within a line) stay text. A kramdown list naming
 * a callout class (`{: .note}`) is left to `../templates.ts`, which makes
 * its paragraph a hint block.
 */
import type {Heading, Html, Image, Nodes, Paragraph, Parents, PhrasingContent, Root, TableCell, Text} from 'mdast'
import type {AnchorLink} from '../../../../../plugins/types.js'
import {admonitionColor} from '../../alerts.js'
import {walk, type Next} from '../../walk.js'
import {readAttrList, trailingAttrList, type AttrList} from './attr-list-syntax.js'

/** Applies the attribute lists of `tree` (see the module comment). */
export function applyAttrLists(tree: Root): void {
  walk(tree, (node, index, parent) => {
    if (node.type === 'heading' || node.type === 'tableCell') endOfBlock(node)
    else if (node.type === 'paragraph') return paragraph(node, index, parent)
    else if (node.type === 'text' && index > 0) return afterInline(node, index, parent)
    else if (node.type === 'html') htmlLines(node)
    return undefined
  })
}

/** Lines of an HTML block that hold only a list: the block's attributes, which only style it. */
function htmlLines(node: Html): void {
  if (!node.value.includes('{')) return
  const lines = node.value.split('\n')
  const kept = lines.filter((line) => {
    const text = line.trim()
    return !text.startsWith('{') || readAttrList(text, 0)?.end !== text.length
  })
  if (kept.length !== lines.length) node.value = kept.join('\n')
}

/** `## Title {#id}`: the list at the end of a heading or table cell. */
function endOfBlock(node: Heading | TableCell): void {
  const last = node.children[node.children.length - 1]
  if (last?.type !== 'text') return
  const list = trailingAttrList(last.value)
  if (!list) return
  last.value = last.value.slice(0, list.start).trimEnd()
  if (last.value === '') node.children.pop()
  if (list.id !== undefined) node.children.unshift(anchor(list.id))
}

/**
 * A paragraph's last line holding only a list (the paragraph's), a kramdown
 * `{: #id}` paragraph under a heading, or a paragraph of a list alone.
 */
function paragraph(node: Paragraph, index: number, parent: Parents): Next {
  const before = parent.children[index - 1]
  const only = node.children.length === 1 ? node.children[0] : undefined
  if (before?.type === 'heading' && only?.type === 'text') {
    const list = readAttrList(only.value.trim(), 0)
    if (list?.colon && list.id !== undefined && list.end === only.value.trim().length) {
      before.children.unshift(anchor(list.id))
      parent.children.splice(index, 1)
      return index
    }
  }
  if (only?.type === 'text') {
    // A paragraph of a list alone (the block's attributes, after an HTML block): nothing of it is shown.
    const text = only.value.trim()
    const list = text.startsWith('{') ? readAttrList(text, 0) : undefined
    if (list && list.end === text.length && !leftToTemplates(list)) {
      if (list.id === undefined) parent.children.splice(index, 1)
      else node.children = [anchor(list.id)]
      return list.id === undefined ? index : undefined
    }
  }
  const last = node.children[node.children.length - 1]
  if (last?.type !== 'text') return undefined
  const lineStart = last.value.lastIndexOf('\n') + 1
  const afterBreak = lineStart === 0 && node.children[node.children.length - 2]?.type === 'break'
  if (lineStart === 0 && !afterBreak) return undefined
  const line = last.value.slice(lineStart)
  const list = trailingAttrList(line)
  if (!list || line.slice(0, list.start).trim() !== '' || leftToTemplates(list)) return undefined
  last.value = last.value.slice(0, Math.max(0, lineStart - 1)).trimEnd()
  if (last.value === '') node.children.pop()
  if (afterBreak) node.children.pop()
  if (list.id !== undefined) node.children.unshift(anchor(list.id))
  return undefined
}

/** `**term**{ #id }`: a list right after an inline element (an image's size is kept). */
function afterInline(node: Text, index: number, parent: Parents): Next {
  const element = parent.children[index - 1] as Nodes
  if (element.type === 'text' || element.type === 'break' || !node.value.startsWith('{')) return undefined
  const list = readAttrList(node.value, 0)
  if (!list || leftToTemplates(list)) return undefined
  node.value = node.value.slice(list.end)
  const children = parent.children as PhrasingContent[]
  if (element.type === 'image') sizeImage(element, list)
  let next = index + 1
  if (node.value === '') {
    children.splice(index, 1)
    next--
  }
  if (list.id === undefined) return next
  // `[](){#id}`: an empty link written only to carry an anchor becomes that anchor.
  if (element.type === 'link' && element.children.length === 0 && element.url === '') {
    children[index - 1] = anchor(list.id)
    return next
  }
  children.splice(index - 1, 0, anchor(list.id))
  return next + 1
}

/** A kramdown list naming a callout class: `../templates.ts` makes its paragraph a hint block. */
function leftToTemplates(list: AttrList): boolean {
  return list.colon && list.classes.some((name) => admonitionColor(name) !== undefined)
}

/** An image's `width`/`height` in pixels (`300`, `300px`) become its size; other units style only. */
function sizeImage(image: Image, list: AttrList): void {
  for (const name of ['width', 'height'] as const) {
    const match = /^(\d{1,5})(?:px)?$/.exec(list.attributes[name] ?? '')
    if (match && Number(match[1]) > 0) image[name] = Number(match[1])
  }
}

function anchor(identifier: string): AnchorLink {
  return {type: 'anchorLink', identifier}
}

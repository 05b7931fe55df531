/**
 * Escaped autolink literals stay text. GitHub does not link `https\://x.org`,
 * `www\.x.org` or `a\@x.org`, and `kbToGfm` writes plain URLs that way so
 * they come back as text. mdast-util-gfm-autolink-literal finds literals in
 * the text values, where the escapes are already gone. So the parse records
 * where each escaped character lands in its text node, and the literal pass
 * runs on text nodes split before those characters (a literal cannot span two
 * nodes); the pieces are joined again afterwards.
 */
import type {Parents, PhrasingContent, Text} from 'mdast'
import type {CompileContext, Extension as TreeExtension, Transform} from 'mdast-util-from-markdown'
import {mergeText} from '../../../plugins/transform/tags.js'

/** Indices, in a text node's value, of the characters written with a backslash escape. */
const escapedAt = new WeakMap<Text, number[]>()

/** from-markdown extension: records the escaped characters of each text node. */
export const recordEscapes: TreeExtension = {
  exit: {
    characterEscape(this: CompileContext) {
      // The escaped character has just been appended to the text node, the parent's last child.
      const parent = this.stack[this.stack.length - 1] as Parents | undefined
      const text = parent && 'children' in parent ? parent.children[parent.children.length - 1] : undefined
      if (text?.type !== 'text') return
      const list = escapedAt.get(text)
      if (list) list.push(text.value.length - 1)
      else escapedAt.set(text, [text.value.length - 1])
    }
  }
}

/** `transform` (the autolink-literal pass), run with text nodes split before their escaped characters. */
export function sparingEscapes(transform: Transform): Transform {
  return (tree) => {
    const touched = splitAtEscapes(tree)
    const result = transform(tree)
    for (const parent of touched) joinTexts(parent)
    return result
  }
}

function splitAtEscapes(parent: Parents, touched: Parents[] = []): Parents[] {
  let split = false
  const children: unknown[] = []
  for (const child of parent.children) {
    const escapes = child.type === 'text' ? escapedAt.get(child) : undefined
    if (child.type === 'text' && escapes) {
      split = true
      let start = 0
      for (const index of escapes) {
        if (index > start) children.push({type: 'text', value: child.value.slice(start, index)})
        start = index
      }
      children.push({type: 'text', value: child.value.slice(start)})
      continue
    }
    children.push(child)
    if ('children' in child) splitAtEscapes(child, touched)
  }
  if (split) {
    parent.children = children as typeof parent.children
    touched.push(parent)
  }
  return touched
}

/** Joins the pieces again: the split parents hold phrasing only (text nodes sit in phrasing parents). */
function joinTexts(parent: Parents): void {
  parent.children = mergeText(parent.children as PhrasingContent[]) as typeof parent.children
}

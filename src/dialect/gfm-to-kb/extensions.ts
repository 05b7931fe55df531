/**
 * The parser extensions of `gfmToKbTree` (full GFM plus the dialect's
 * tags), built once: constructing `gfm()` and `gfmFromMarkdown()` on every
 * call cost more than parsing a short article's text. Two shortcuts skip
 * autolink-literal work that cannot find anything, without changing a tree.
 */
import type {Nodes, Parents} from 'mdast'
import type {Extension as TreeExtension, Transform} from 'mdast-util-from-markdown'
import {gfmFromMarkdown} from 'mdast-util-gfm'
import {gfm} from 'micromark-extension-gfm'
import type {Construct, Extension as SyntaxExtension} from 'micromark-util-types'
import {kbFromMarkdown, kbSyntax} from '../../../plugins/index.js'
import {SKIP, walk} from './walk.js'

const gfmSyntax = gfm()
const dialectSyntax = kbSyntax()
const withEmail: SyntaxExtension[] = [gfmSyntax, dialectSyntax]
const withoutEmail: SyntaxExtension[] = [withoutConstruct(gfmSyntax, 'emailAutolink'), dialectSyntax]

/**
 * The micromark extensions for `markdown`. The email autolink literal is
 * tried at the start of every word and scans the word for `@`; it cannot
 * match in a text without `@` (micromark reads the characters as written,
 * references are not decoded yet), so such texts are parsed without it. A
 * failed attempt leaves no trace, so the events are the same.
 */
export function syntaxFor(markdown: string): SyntaxExtension[] {
  return markdown.includes('@') ? withEmail : withoutEmail
}

/** The from-markdown extensions: GFM's (autolink-literal transform guarded) and the dialect's. */
export const treeExtensions: TreeExtension[] = [...gfmFromMarkdown().map(guardAutolinkTransform), kbFromMarkdown()]

/** `extension` with the text construct named `name` left out. */
function withoutConstruct(extension: SyntaxExtension, name: string): SyntaxExtension {
  const text: Record<string, Construct[]> = {}
  for (const [code, value] of Object.entries(extension.text ?? {})) {
    const list: Array<Construct | undefined> = Array.isArray(value) ? value : [value]
    const kept = list.filter((construct): construct is Construct => construct !== undefined && construct.name !== name)
    if (kept.length > 0) text[code] = kept
  }
  return {...extension, text}
}

/**
 * mdast-util-gfm-autolink-literal's transform runs find-and-replace (a
 * `visitParents` per pattern) over every text outside links. All its
 * patterns need `http://`, `https://`, `www.` or `@` (case-insensitive) in
 * one text node, so a tree without them skips it.
 */
function guardAutolinkTransform(extension: TreeExtension): TreeExtension {
  if (!extension.transforms || !extension.enter || !('literalAutolink' in extension.enter)) return extension
  const guard =
    (transform: Transform): Transform =>
    (tree) =>
      mayHoldLiteral(tree) ? transform(tree) : undefined
  return {...extension, transforms: extension.transforms.map(guard)}
}

const literalStart = /https?:\/\/|www\.|@/i

/** Whether a text the transform searches (not inside a link or link reference) may hold an autolink literal. */
function mayHoldLiteral(tree: Parents): boolean {
  let found = false
  walk(tree, (node: Nodes) => {
    if (found) return SKIP
    if (node.type === 'text') found = literalStart.test(node.value)
    else if (node.type === 'link' || node.type === 'linkReference') return SKIP
  })
  return found
}

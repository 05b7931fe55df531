/**
 * The parser extensions of `gfmToKbTree` (full GFM plus the dialect's
 * tags, and math: `math.ts`), built once: constructing `gfm()` and `gfmFromMarkdown()` on every
 * call cost more than parsing a short article's text. Autolink-literal and
 * table work that cannot find anything is skipped without changing a tree.
 */
import type {Nodes, Parents} from 'mdast'
import type {Extension as TreeExtension, Transform} from 'mdast-util-from-markdown'
import {gfmFromMarkdown} from 'mdast-util-gfm'
import {gfm} from 'micromark-extension-gfm'
import {kbFromMarkdown, kbSyntax} from '../../../plugins/index.js'
import {emailAutolinkConstruct, syntaxVariants, tableConstruct} from '../syntax.js'
import {recordEscapes, sparingEscapes} from './escaped-literals.js'
import {mathConstructs, mathSyntax, mathTree} from './math.js'
import {SKIP, walk} from './walk.js'

/** The micromark extensions to parse `markdown` with (see `../syntax.ts`). */
export const syntaxFor = syntaxVariants(
  [gfm(), kbSyntax(), ...mathSyntax()],
  [emailAutolinkConstruct, tableConstruct, ...mathConstructs]
)

/** The from-markdown extensions: GFM's (autolink-literal transform guarded), the dialect's and math's. */
export const treeExtensions: TreeExtension[] = [
  ...gfmFromMarkdown().map(guardAutolinkTransform),
  kbFromMarkdown(),
  mathTree(),
  recordEscapes
]

/**
 * mdast-util-gfm-autolink-literal's transform runs find-and-replace (a
 * `visitParents` per pattern) over every text outside links. All its
 * patterns need `http://`, `https://`, `www.` or `@` (case-insensitive) in
 * one text node, so a tree without them skips it.
 */
function guardAutolinkTransform(extension: TreeExtension): TreeExtension {
  if (!extension.transforms || !extension.enter || !('literalAutolink' in extension.enter)) return extension
  const guard = (transform: Transform): Transform => {
    const sparing = sparingEscapes(transform)
    return (tree) => (mayHoldLiteral(tree) ? sparing(tree) : undefined)
  }
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

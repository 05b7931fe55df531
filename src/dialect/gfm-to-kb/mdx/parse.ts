/**
 * Parsing MDX with the unified collective's MDX support
 * (`micromark-extension-mdxjs`, `mdast-util-mdx`) on top of the extensions
 * every body is parsed with: JSX elements, their attributes and `{…}`
 * expressions become nodes (expressions with the estree acorn read, which
 * is only ever read: `static-value.ts`). MDX is strict (a stray `<` or `{`
 * is an error): the failure is answered, with MDX's own message and place,
 * for the caller to read the body leniently instead.
 */
import type {Root} from 'mdast'
import {fromMarkdown} from 'mdast-util-from-markdown'
import {mdxFromMarkdown} from 'mdast-util-mdx'
import {mdxjs} from 'micromark-extension-mdxjs'
import {gfm} from 'micromark-extension-gfm'
import {nestingLimit} from '../../../../plugins/depth.js'
import {linearEditMaps} from '../../linear-edit-map.js'
import {emailAutolinkConstruct, syntaxVariants, tableConstruct} from '../../syntax.js'
import {treeExtensions} from '../extensions.js'

// Built once: making them costs more than parsing a short body. The dialect's tags are JSX to MDX (a tokenizer
// of its own would take some of the tags JSX pairs): they are paired after the parse, from the HTML they become.
const syntaxFor = syntaxVariants([gfm(), mdxjs()], [emailAutolinkConstruct, tableConstruct])
const mdxTree = mdxFromMarkdown()

/** Why a source is not MDX: MDX's message and where (in the source's lines). */
export interface MdxFailure {
  reason: string
  line: number
  column: number
}

/** The tree of MDX `source`, or why it is not MDX. */
export function parseMdx(source: string): {tree: Root} | {failure: MdxFailure} {
  linearEditMaps()
  try {
    const tree = fromMarkdown(source, {
      extensions: syntaxFor(source),
      mdastExtensions: [nestingLimit(source, 'text'), ...treeExtensions, mdxTree, nestingLimit(source, 'text')]
    })
    return {tree}
  } catch (error) {
    // MDX's syntax errors carry their place; anything else thrown while reading (acorn's own limits) is a failure too.
    const place = error as {reason?: unknown; line?: unknown; column?: unknown; message?: unknown}
    return {
      failure: {
        reason: typeof place.reason === 'string' ? place.reason : String(place.message ?? error),
        line: typeof place.line === 'number' ? place.line : 1,
        column: typeof place.column === 'number' ? place.column : 1
      }
    }
  }
}

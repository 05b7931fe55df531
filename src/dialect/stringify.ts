/** `stringifyKb`: an mdast tree to the dialect's canonical Markdown. */
import type {Root} from 'mdast'
import {toMarkdown} from 'mdast-util-to-markdown'
import {assertNesting} from '../../plugins/depth.js'
import {kbToMarkdown} from '../../plugins/index.js'

const extension = kbToMarkdown()

/**
 * Serialise a tree (dialect nodes and ordinary mdast/GFM nodes) to the
 * canonical form of `docs/dialect.md`. The result ends with a single
 * newline (an empty tree gives the empty string). Throws a `NestingError`
 * (naming the limit and the line) for a tree nested deeper than
 * `maxNesting`, which only code can build: `parseKb` caps its trees. A node
 * the dialect has no form for (a remark-gfm footnote, math, MDX) throws an
 * error that names it and points to `gfmToKbTree`, which converts them.
 */
export function stringifyKb(tree: Root): string {
  assertNesting(tree)
  let value: string
  try {
    value = toMarkdown(tree, {extensions: [extension]})
  } catch (error) {
    throw unknownNode(error) ?? error
  }
  return value.replace(/\n+$/, '') + (value.trim() === '' ? '' : '\n')
}

/** mdast-util-to-markdown's "Cannot handle unknown node" as a message that says what to do, else undefined. */
function unknownNode(error: unknown): Error | undefined {
  const type = error instanceof Error ? /^Cannot handle unknown node `([^`]+)`/.exec(error.message)?.[1] : undefined
  if (type === undefined) return undefined
  return new TypeError(
    `stringifyKb cannot write a \`${type}\` node: the dialect has no form for it (a tree from remark-gfm, ` +
      `remark-math or remark-mdx holds such nodes). Convert the Markdown with gfmToKbTree(markdown) (or gfmToKb), ` +
      'which turns footnotes, task lists, math and MDX into what the platform holds and reports each change',
    {cause: error}
  )
}

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
 * `maxNesting`, which only code can build: `parseKb` caps its trees.
 */
export function stringifyKb(tree: Root): string {
  assertNesting(tree)
  const value = toMarkdown(tree, {extensions: [extension]})
  return value.replace(/\n+$/, '') + (value.trim() === '' ? '' : '\n')
}

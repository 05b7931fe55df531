/** `stringifyKb`: an mdast tree to the dialect's canonical Markdown. */
import type {Root} from 'mdast'
import {toMarkdown} from 'mdast-util-to-markdown'
import {kbToMarkdown} from '../../plugins/index.js'

const extension = kbToMarkdown()

/**
 * Serialise a tree (dialect nodes and ordinary mdast/GFM nodes) to the
 * canonical form of `docs/dialect.md`. The result ends with a single
 * newline (an empty tree gives the empty string).
 */
export function stringifyKb(tree: Root): string {
  const value = toMarkdown(tree, {extensions: [extension]})
  return value.replace(/\n+$/, '') + (value.trim() === '' ? '' : '\n')
}

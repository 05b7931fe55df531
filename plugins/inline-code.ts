/**
 * Inline code in the platform's style. A code span wrapped across lines
 * inside a list item keeps, on parsing, the spaces that start its next
 * line beyond the item's content offset (micromark keeps them in the
 * value), and the list item writes its continuation lines 4 spaces in,
 * more than a `- ` (2) or `1. ` (3) item's offset: each round trip added
 * that difference to the code. Inside a list item the white space after a
 * line ending of the code is therefore left out when writing; the item's
 * indentation gives it back on parsing, so the text is a fixpoint. (Where
 * a line of a paragraph starts is no part of what CommonMark shows.)
 *
 * In a table cell a pipe splits the cell even inside code, so it is
 * written `\|`, as mdast-util-gfm-table's own handler does (replacing that
 * handler here must not lose it: `(Page|Site)` in a cell became two cells).
 */
import type {InlineCode} from 'mdast'
import {gfmTableToMarkdown} from 'mdast-util-gfm-table'
import type {Handle} from 'mdast-util-to-markdown'

const inlineCodeInTables = gfmTableToMarkdown().handlers!.inlineCode as Handle

/** The `inlineCode` handler: GFM's (pipes escaped in table cells), with the white space starting the code's lines left out inside list items. */
export const inlineCode: Handle = (node: InlineCode, parent, state, info) => {
  if (!state.stack.includes('listItem') || !/[\r\n][ \t]/.test(node.value))
    return inlineCodeInTables(node, parent, state, info)
  return inlineCodeInTables({...node, value: node.value.replace(/(\r?\n|\r)[ \t]+/g, '$1')}, parent, state, info)
}

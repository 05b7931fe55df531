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
 */
import type {InlineCode} from 'mdast'
import {defaultHandlers, type Handle} from 'mdast-util-to-markdown'

/** The `inlineCode` handler: the default one, with the white space starting the code's lines left out inside list items. */
export const inlineCode: Handle = (node: InlineCode, parent, state) => {
  if (!state.stack.includes('listItem') || !/[\r\n][ \t]/.test(node.value))
    return defaultHandlers.inlineCode(node, parent, state)
  return defaultHandlers.inlineCode({...node, value: node.value.replace(/(\r?\n|\r)[ \t]+/g, '$1')}, parent, state)
}

/**
 * The passes that add levels to a parsed tree (a title's paragraph and
 * bold inside a block, a hint block around a paragraph) run after the
 * parse capped the tree at the dialect's nesting limit; at the limit, what
 * they add would be too deep to serialise. They call this afterwards: a
 * subtree past the limit becomes its text, with an error, as in the parse.
 */
import type {Root} from 'mdast'
import type {VFile} from 'vfile'
import {capNesting} from '../../../../plugins/depth.js'

/** Holds `tree` to the nesting limit again, reporting each capped subtree on `file` as an error. */
export function capAfterPass(tree: Root, file: VFile | undefined): void {
  for (const problem of capNesting(tree, {leaf: 'text'})) {
    if (!file) continue
    const message = file.message(problem.reason, {place: problem.place, ruleId: problem.ruleId, source: 'kbsync'})
    message.fatal = true
  }
}

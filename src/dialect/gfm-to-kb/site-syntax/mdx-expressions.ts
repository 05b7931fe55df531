/**
 * MDX `{expressions}` in text: kbsync runs no JavaScript, so they stay as
 * text, with one warning per file that counts them and names the first.
 */
import type {Root} from 'mdast'
import type {VFile} from 'vfile'
import {matchesInText} from './text-matches.js'

const expression = /\{[^{}\n]*\}/g

/** Warns once on `file` when the text of `tree` (code is not text) holds MDX expressions. */
export function warnMdxExpressions(tree: Root, file: VFile): void {
  const {count, place} = matchesInText(tree, expression)
  if (count === 0) return
  const message = file.message(
    `${count} MDX expression${count === 1 ? '' : 's'} (\`{…}\`) left as text, the first here: kbsync does not run JavaScript. Write the text the expression stands for.`,
    {place, ruleId: 'kb-mdx-expression', source: 'kbsync'}
  )
  message.fatal = false
}

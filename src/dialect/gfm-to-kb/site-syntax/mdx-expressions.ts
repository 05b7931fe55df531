/**
 * MDX `{expressions}` in text: kbsync runs no JavaScript, so they stay as
 * text, with one warning per file that counts them and names the first.
 */
import type {Root} from 'mdast'
import type {VFile} from 'vfile'
import {walk} from '../walk.js'
import {placeIn, type Place} from './templates.js'

const expression = /\{[^{}\n]*\}/g

/** Warns once on `file` when the text of `tree` (code is not text) holds MDX expressions. */
export function warnMdxExpressions(tree: Root, file: VFile): void {
  let count = 0
  let place: Place | undefined
  walk(tree, (node) => {
    if (node.type !== 'text') return
    for (const match of node.value.matchAll(expression)) {
      count++
      place ??= placeIn(node, match.index)
    }
  })
  if (count === 0) return
  const message = file.message(
    `${count} MDX expression${count === 1 ? '' : 's'} (\`{…}\`) left as text, the first here: kbsync does not run JavaScript. Write the text the expression stands for.`,
    {place, ruleId: 'kb-mdx-expression', source: 'kbsync'}
  )
  message.fatal = false
}

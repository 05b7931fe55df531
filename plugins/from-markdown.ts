/**
 * mdast-util-from-markdown extension of the dialect: the tags tokenized by
 * `kbSyntax` become `html` nodes, which the transform then pairs into the
 * dialect's nodes.
 */
import type {Html} from 'mdast'
import type {CompileContext, Extension, Token} from 'mdast-util-from-markdown'
import {exitCodeFenced} from './code-fence.js'
import {kbTransform} from './transform/index.js'

function enterTag(this: CompileContext, token: Token): undefined {
  this.enter({type: 'html', value: ''}, token)
}

function exitTag(this: CompileContext, token: Token): undefined {
  const node = this.stack[this.stack.length - 1] as Html
  node.value = this.sliceSerialize(token)
  this.exit(token)
}

/**
 * The from-markdown extension (use with `kbSyntax()`): builds the dialect's
 * nodes. Problems are kept for `takeProblems(tree)` / `reportProblems(tree, file)`.
 */
export function kbFromMarkdown(): Extension {
  return {
    enter: {kbTag: enterTag, kbTagFlow: enterTag},
    exit: {kbTag: exitTag, kbTagFlow: exitTag, codeFenced: exitCodeFenced},
    transforms: [kbTransform]
  }
}

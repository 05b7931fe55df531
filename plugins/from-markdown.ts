/**
 * mdast-util-from-markdown extension of the dialect: the tags tokenized by
 * `kbSyntax` become `html` nodes, which the transform then pairs into the
 * nodes of the constructs given.
 */
import type {Html} from 'mdast'
import type {CompileContext, Extension, Token} from 'mdast-util-from-markdown'
import {exitCodeFenced} from './code-fence.js'
import type {KbConstruct} from './construct.js'
import {pairTree} from './transform/index.js'
import {pairingTable, type PairingTable} from './transform/table.js'

function enterTag(this: CompileContext, token: Token): undefined {
  this.enter({type: 'html', value: ''}, token)
}

function exitTag(this: CompileContext, token: Token): undefined {
  const node = this.stack[this.stack.length - 1] as Html
  node.value = this.sliceSerialize(token)
  this.exit(token)
}

/**
 * The from-markdown extension (use with `kbSyntax()`) building the nodes of
 * `constructs`: a list a processor's registration adds to after this is
 * made, so its table (unless given) is made when the first tree is built,
 * once: the processor is frozen by then, and its list cannot grow. Problems
 * are kept for `takeProblems(tree)` / `reportProblems(tree, file)`.
 */
export function kbFromMarkdownOf(constructs: readonly KbConstruct[], table?: PairingTable): Extension {
  let pairing = table
  const transform = (tree: Parameters<typeof pairTree>[0]): undefined => {
    pairing ??= pairingTable(constructs)
    pairTree(tree, pairing)
    return undefined
  }
  return {
    enter: {kbTag: enterTag, kbTagFlow: enterTag},
    exit: {kbTag: exitTag, kbTagFlow: exitTag, codeFenced: exitCodeFenced},
    transforms: [transform]
  }
}

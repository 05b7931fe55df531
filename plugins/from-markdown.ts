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
 * made, so its table is made when the first tree is built (and again if the
 * list grew). Problems are kept for `takeProblems(tree)` / `reportProblems(tree, file)`.
 */
export function kbFromMarkdownOf(constructs: readonly KbConstruct[]): Extension {
  let table: PairingTable | undefined
  let size = -1
  const transform = (tree: Parameters<typeof pairTree>[0]): undefined => {
    if (size !== constructs.length) {
      table = pairingTable(constructs)
      size = constructs.length
    }
    pairTree(tree, table as PairingTable)
    return undefined
  }
  return {
    enter: {kbTag: enterTag, kbTagFlow: enterTag},
    exit: {kbTag: exitTag, kbTagFlow: exitTag, codeFenced: exitCodeFenced},
    transforms: [transform]
  }
}

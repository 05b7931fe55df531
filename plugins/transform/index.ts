/**
 * The from-markdown transform of the dialect: one post-order walk that turns
 * the `html` tags micromark tokenized into the nodes of the constructs whose
 * entries the pairing table holds. Linear in the
 * size of the tree; nothing is re-parsed.
 */
import type {Nodes, Parents, PhrasingContent, Root, RootContent} from 'mdast'
import {pairFlow} from './flow.js'
import {splitFlow, type FlowItem, type Pieces} from './split.js'
import {pairPhrasing, type PairingContext} from './phrasing.js'
import {recordKept} from './kept.js'
import {recordProblems} from './problems.js'
import type {PairingTable} from './table.js'

const flowParents = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition'])
const phrasingParents = new Set([
  'paragraph',
  'heading',
  'tableCell',
  'emphasis',
  'strong',
  'delete',
  'link',
  'linkReference'
])

/** Build the nodes of `table`'s constructs in `tree` (in place); problems are recorded for `takeProblems`. */
export function pairTree(tree: Root, table: PairingTable): void {
  const context: PairingContext = {table, problems: [], kept: []}
  walk(tree, context)
  recordProblems(tree, context.problems)
  recordKept(tree, context.kept)
}

/** A parent on the walk's stack: `items` once its children were entered (a flow parent's split ones). */
interface Visit {
  parent: Parents
  items?: Array<FlowItem | Nodes>
  /** Of a flow parent: where its split pieces came from. */
  pieces?: Pieces
}

/**
 * Pair every parent's children after its own children were paired
 * (post-order), with an explicit stack: a body nests as deep as it likes
 * (`>` x 100,000), the call stack does not.
 */
function walk(tree: Root, context: PairingContext): void {
  const stack: Visit[] = [{parent: tree}]
  while (stack.length > 0) {
    const visit = stack[stack.length - 1]
    const {parent} = visit
    if (!visit.items) {
      if (flowParents.has(parent.type))
        visit.items = splitFlow(parent.children as RootContent[], (visit.pieces = new Map()))
      else visit.items = parent.children as Nodes[]
      // Pushed last to first, so the first child's subtree is done first, as a recursion would.
      for (let index = visit.items.length - 1; index >= 0; index--) {
        const item = visit.items[index]
        if (item.type !== 'kbTagItem' && 'children' in item) stack.push({parent: item as Parents})
      }
      continue
    }
    stack.pop()
    if (flowParents.has(parent.type)) {
      parent.children = pairFlow(visit.items as FlowItem[], visit.pieces as Pieces, context) as typeof parent.children
    } else if (phrasingParents.has(parent.type)) {
      parent.children = pairPhrasing(parent.children as PhrasingContent[], context) as typeof parent.children
    }
  }
}

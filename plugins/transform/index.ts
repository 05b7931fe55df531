/**
 * The from-markdown transform of the dialect: one post-order walk that turns
 * the `html` tags micromark tokenized into the dialect's nodes. Linear in the
 * size of the tree; nothing is re-parsed.
 */
import type {Nodes, Parents, PhrasingContent, Root, RootContent} from 'mdast'
import {splitFlow, pairFlow} from './flow.js'
import {pairPhrasing} from './phrasing.js'
import {recordProblems, type KbProblem} from './problems.js'

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

/** Build the dialect's nodes in `tree` (in place); problems are recorded for `takeProblems`. */
export function kbTransform(tree: Root): void {
  const problems: KbProblem[] = []
  visitParent(tree, problems)
  recordProblems(tree, problems)
}

function visitParent(parent: Parents, problems: KbProblem[]): void {
  if (flowParents.has(parent.type)) {
    const items = splitFlow(parent.children as RootContent[])
    for (const item of items) {
      if (item.type !== 'kbTagItem' && 'children' in item) visitParent(item as Parents, problems)
    }
    parent.children = pairFlow(items, problems) as typeof parent.children
    return
  }
  for (const child of parent.children as Nodes[]) {
    if ('children' in child) visitParent(child as Parents, problems)
  }
  if (phrasingParents.has(parent.type)) {
    parent.children = pairPhrasing(parent.children as PhrasingContent[], problems) as typeof parent.children
  }
}

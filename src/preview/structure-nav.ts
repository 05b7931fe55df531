/**
 * The navigation of a knowledge base as the API describes it (the
 * structure's nested nodes), for pages that show stored items: the local
 * server's browse page renders them with `renderArticlePage` too.
 */
import type {StructureNode} from '../api/types.js'
import type {NavItem} from './nav.js'

/**
 * Navigation entries for the structure `nodes`; `href` gives each item's
 * address, `currentId` marks the item shown.
 */
export function navFromStructure(
  nodes: StructureNode[],
  href: (node: StructureNode) => string,
  currentId?: string
): NavItem[] {
  const top: NavItem[] = []
  // An explicit stack, as a stored tree may nest topics thousands deep; each item is made in tree order.
  const stack: Array<{node: StructureNode; into: NavItem[]}> = [...nodes].reverse().map((node) => ({node, into: top}))
  while (stack.length > 0) {
    const {node, into} = stack.pop()!
    const item: NavItem = {kind: node.type, title: node.title, href: href(node)}
    if (node.id === currentId) item.current = true
    into.push(item)
    if (node.type !== 'topic') continue
    const children: NavItem[] = []
    item.children = children
    const below = node.children ?? []
    for (let i = below.length - 1; i >= 0; i--) stack.push({node: below[i]!, into: children})
  }
  return top
}

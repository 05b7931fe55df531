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
  return nodes.map((node) => {
    const item: NavItem = {kind: node.type, title: node.title, href: href(node)}
    if (node.id === currentId) item.current = true
    if (node.type === 'topic') item.children = navFromStructure(node.children ?? [], href, currentId)
    return item
  })
}

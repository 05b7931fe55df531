/** Where a scanned document sits: the key of its parent topic. */
import path from 'node:path'
import type {LocalNode} from '../../local/index.js'

/** Key of a document's parent topic: the one the scan placed it in (a navigation may place it outside its folder), else its folder. */
export function parentPathOf(node: LocalNode): string {
  if (node.parent !== undefined) return node.parent
  const parent = path.posix.dirname(node.path)
  return parent === '.' ? '' : parent
}

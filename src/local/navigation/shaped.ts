/**
 * Whether a navigation outline shaped a scanned tree. `pull` writes the
 * plain folder layout (a folder and `_index.md` per topic): into a tree an
 * outline shaped, it would move the chapter files into folders named after
 * their titles, so it must refuse such a folder before writing anything.
 */
import type {NavOrigin} from './types.js'
import type {LocalNode} from '../types.js'

/** The navigation entry of the first item an outline (`SUMMARY.md`, a MkDocs `nav`) placed, if any. */
export function outlineOrigin(byPath: Readonly<Record<string, LocalNode>>): NavOrigin | undefined {
  for (const node of Object.values(byPath)) if (node.navigation) return node.navigation
  return undefined
}

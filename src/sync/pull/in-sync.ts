/**
 * A document found in the folder that the state does not know (matched by
 * title, as in a fresh clone of pushed docs, or pinned by `kb_id` and never
 * synced) may already say what the platform holds. Pull then adopts the file
 * as it is: no write, no conflict copy, and a state entry that makes the
 * next push send nothing. Any difference is left to the conflict path.
 */
import {permissionsKey, type LocalNode, type LocalPermissions} from '../../local/index.js'
import {holdsRender} from '../shared/compare.js'
import type {RemoteDetail, RemoteItem} from '../shared/remote.js'
import {renderBody, renderedHashOf, type RenderContext} from '../shared/render.js'

/**
 * Whether `node` has the title, the body (as push would render it with
 * `context`) and the declared permissions (`declared`, when they were read)
 * of the remote item. A body push could not render completely (a file it
 * uses has no URL yet) does not count as the same.
 */
export function alreadyInSync(
  node: LocalNode,
  item: RemoteItem,
  detail: RemoteDetail,
  declared: LocalPermissions | undefined,
  context: RenderContext
): boolean {
  if (node.kind !== item.type || node.title !== item.title) return false
  if (
    (declared ? permissionsKey(declared) : undefined) !==
    (node.permissions ? permissionsKey(node.permissions) : undefined)
  )
    return false
  if (node.body === undefined) return detail.body.trim() === ''
  return holdsLocalRender(node, detail, context)
}

/**
 * Whether the platform already stores the body `node` renders to with
 * `context`, as push renders it (only a complete render counts). The body
 * text is asked of `renderBody` only when the hashes differ (its last render
 * of `node` is kept).
 */
export function holdsLocalRender(node: LocalNode, detail: RemoteDetail, context: RenderContext): boolean {
  return holdsRender(detail, renderedHashOf(node, context), () => renderBody(node, context).body)
}

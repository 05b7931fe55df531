/**
 * Setting a document's declared permissions, then refreshing its baseline:
 * the platform may bump `updated_at` on a permissions change, which must not
 * read as a web edit next time.
 */
import {permissionsKey, type LocalNode} from '../../local/index.js'
import {permissionsSeenAfterWrite} from '../shared/permissions-seen.js'
import {toDetail} from '../shared/remote.js'
import type {PlanOp} from '../shared/types.js'
import type {RunState} from './item-step.js'

/** Sets the declared permissions of `node`, then refreshes its baseline (the platform may bump `updated_at`). */
export async function writePermissions(run: RunState, node: LocalNode, op: PlanOp): Promise<void> {
  const id = run.ids.get(node.path)!
  const wanted = node.permissions!
  await run.options.client.setPermissions(id, {
    ...(node.kind === 'topic' && wanted.inherit !== undefined ? {inherit: wanted.inherit} : {}),
    readers: wanted.readers,
    editors: wanted.editors
  })
  run.writes++
  const item = await run.options.client.getItem(id)
  const entry = run.store.state.items[node.path]
  if (entry && entry.id === id) {
    entry.permissionsKey = permissionsKey(wanted)
    const ours = entry.remoteHash === toDetail(item).bodyHash
    const seen = permissionsSeenAfterWrite(
      entry.permissionsSeenAt,
      {updatedAt: entry.remoteUpdatedAt, version: entry.remoteVersion},
      {updatedAt: item.updated_at, version: item.version},
      true
    )
    if (seen !== undefined) entry.permissionsSeenAt = seen
    if (ours) {
      entry.remoteVersion = item.version
      entry.remoteUpdatedAt = item.updated_at
    }
    run.store.touchItem(node.path)
  }
  await run.store.saveChanges()
  run.emit({type: 'done', op, remoteId: id})
}

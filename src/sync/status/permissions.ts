/**
 * Permissions changed on the platform, for `status` in a folder that
 * manages them (`shared/permissions-managed.ts`): every matched item's are
 * read (one request each, through the pool), since the API contract does not
 * promise that a permissions change moves `updated_at`, and compared with
 * what the state recorded at the last sync and with what the files declare.
 */
import {mapLimit, permissionsKey, type LocalNode} from '../../local/index.js'
import {permissionsAsRecorded, declaredPermissions} from '../shared/declared-permissions.js'
import type {PlanInputs} from '../push/prepare.js'
import {isAccessDenied} from '../pull/reads.js'
import type {SyncClient} from '../shared/types.js'

/** An item whose permissions changed on the platform since the last sync. */
export interface PermissionChange {
  path: string
  id: string
  type: 'article' | 'topic'
  title: string
  /** `remote`: changed on the platform only (a pull takes it); `conflict`: the file declares other permissions too. */
  side: 'remote' | 'conflict'
}

/** What reading the permissions found; `unreadable` when they are closed to this account. */
export interface PermissionReading {
  changes: PermissionChange[]
  unreadable?: string
}

/** Whether the file of `node` declares permissions other than those recorded at the last sync. */
function declaresOther(node: LocalNode, recorded: string | undefined): boolean {
  return node.permissions !== undefined && permissionsKey(node.permissions) !== recorded
}

/** Reads the permissions of every item matched to a synced document and lists those changed on the platform. */
export async function readPermissionChanges(
  seen: PlanInputs,
  client: Pick<SyncClient, 'getPermissions'>,
  limit: number
): Promise<PermissionReading> {
  const {scan, state, remote, matching} = seen
  const synced = [...matching.ids].filter(([docPath, id]) => state.items[docPath]?.id === id && remote.items[id])
  let unreadable: string | undefined
  await mapLimit(synced, limit, async ([, id]) => {
    if (unreadable !== undefined || id in remote.permissions) return
    try {
      remote.permissions[id] = await client.getPermissions(id)
    } catch (error) {
      if (!isAccessDenied(error)) throw error
      unreadable ??= (error as Error).message
    }
  })
  if (unreadable !== undefined) return {changes: [], unreadable}
  const changes: PermissionChange[] = []
  for (const [docPath, id] of synced) {
    const entry = state.items[docPath]!
    if (permissionsAsRecorded(remote, id, entry)) continue
    const node = scan.byPath[docPath]!
    const item = remote.items[id]!
    const declared = declaredPermissions(item.type, remote.permissions[id])
    const remoteKey = declared ? permissionsKey(declared) : undefined
    // Both sides made the same change: nothing to do on either.
    if (node.permissions !== undefined && permissionsKey(node.permissions) === remoteKey) continue
    const side = declaresOther(node, entry.permissionsKey) ? 'conflict' : 'remote'
    changes.push({path: docPath, id, type: item.type, title: item.title, side})
  }
  return {changes}
}

/**
 * Permissions as a folder declares them (`_permissions.yml`, front matter)
 * from what the platform answers, and whether they are those the sync
 * state recorded at the last sync.
 */
import type {ItemType, Permissions} from '../../api/types.js'
import {permissionsKey, type LocalPermissions, type StateEntry, type SyncState} from '../../local/index.js'
import type {RemoteSnapshot} from './remote.js'

/**
 * Permissions as a folder declares them: `_permissions.yml` of a topic, front
 * matter of an article; none when the item only inherits. A topic may inherit
 * and name people of its own besides; `inherit` means nothing for an article
 * (servers answer it either way), so its own people decide.
 */
export function declaredPermissions(
  type: ItemType,
  permissions: Permissions | undefined
): LocalPermissions | undefined {
  if (!permissions) return undefined
  const ids = (people: Array<{id: number}>) => [...new Set(people.map((p) => p.id))].sort((a, b) => a - b)
  const readers = ids(permissions.readers ?? [])
  const editors = ids(permissions.editors ?? [])
  const ownPeople = readers.length + editors.length > 0
  if (!ownPeople && permissions.inherit !== false) return undefined
  return {...(type === 'topic' ? {inherit: permissions.inherit === false ? false : true} : {}), readers, editors}
}

/** The state entry of each id, with its key. */
export function entriesById(state: SyncState): Map<string, {key: string; entry: StateEntry}> {
  const byId = new Map<string, {key: string; entry: StateEntry}>()
  for (const [key, entry] of Object.entries(state.items))
    if (entry.id && !byId.has(entry.id)) byId.set(entry.id, {key, entry})
  return byId
}

/** Whether the permissions read for `id` are those `entry` recorded (false when they were not read). */
export function permissionsAsRecorded(remote: RemoteSnapshot, id: string, entry: StateEntry): boolean {
  const item = remote.items[id]
  if (!item || !(id in remote.permissions)) return false
  const declared = declaredPermissions(item.type, remote.permissions[id])
  return (declared ? permissionsKey(declared) : undefined) === entry.permissionsKey
}

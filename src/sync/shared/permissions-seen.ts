/**
 * When kbsync knows an item's permissions without reading them: the one
 * rule behind the state's `permissionsSeenAt` (the remote `updated_at` at
 * which kbsync last read or wrote the item's permissions).
 *
 * `remoteUpdatedAt` alone cannot tell whether the permissions a pull
 * recorded are still the platform's: a push that finds the item moved
 * records the new `updated_at` without knowing what moved it (issue 18).
 * `permissionsSeenAt` moves only where kbsync can prove the permissions did
 * not change behind its back.
 *
 * It is a record, not a reason to skip a read: the API contract does not
 * promise that a permissions change moves `updated_at` at all, so a folder
 * that manages permissions has every item's read by pull and status
 * (`permissions-managed.ts`, issue 31), whatever `updated_at` says.
 */
import type {StateEntry} from '../../local/index.js'

/** What identifies one state of a remote item: its `updated_at`, and its `version` where known. */
export interface RemoteStamp {
  updatedAt?: string
  version?: number
}

/**
 * The `permissionsSeenAt` of an item after a pull (pure): the structure's
 * `updatedAt` when the pull read its permissions (and recorded what it
 * read), else the entry's own.
 */
export function permissionsSeenAfterPull(
  entry: StateEntry | undefined,
  updatedAt: string | undefined,
  read: boolean
): string | undefined {
  return read && updatedAt !== undefined ? updatedAt : entry?.permissionsSeenAt
}

/**
 * The stamp kbsync knew of an item right before writing it (pure): the
 * state entry's (its last write or check), unless `snapshot` (what this
 * run read: the record, else the structure) shows the item moved since.
 */
export function stampBefore(entry: StateEntry | undefined, snapshot: RemoteStamp | undefined): RemoteStamp {
  if (snapshot !== undefined && snapshot.updatedAt !== entry?.remoteUpdatedAt) return snapshot
  return {updatedAt: entry?.remoteUpdatedAt, version: entry?.remoteVersion}
}

/**
 * The `permissionsSeenAt` of an item after kbsync's own write to it
 * (pure). `seenAt` is the entry's before the write; `before` the stamp
 * kbsync knew right before it (undefined: the write created the item,
 * whose permissions are the platform's defaults); `after` the stamp the
 * write gave. `setsPermissions`: the write replaced the permissions, so
 * what they were before does not matter.
 *
 * The new stamp is taken only when nothing but this write lies between
 * the permissions kbsync knew and `after`: the permissions were known at
 * `before` (or set now), and the write is the only change since `before`
 * (the version moved by exactly one, where both versions are known).
 * Otherwise someone else changed the item (body or permissions), and the
 * next pull must read them: `seenAt` is kept.
 */
export function permissionsSeenAfterWrite(
  seenAt: string | undefined,
  before: RemoteStamp | undefined,
  after: RemoteStamp,
  setsPermissions = false
): string | undefined {
  if (after.updatedAt === undefined) return seenAt
  if (before === undefined) return after.updatedAt
  const known = setsPermissions || (seenAt !== undefined && seenAt === before.updatedAt)
  const onlyThisWrite =
    before.version === undefined || after.version === undefined || after.version === before.version + 1
  return known && onlyThisWrite ? after.updatedAt : seenAt
}

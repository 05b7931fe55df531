/**
 * The state a pull leaves: each written document is recorded as it lands
 * (a line of the journal, so a pull stopped later does not take its own
 * writes for local edits), and at the end one entry per remote item where
 * its file is, the old entries where nothing was written.
 */
import {permissionsKey, type LocalPermissions, type StateEntry, type SyncState} from '../../local/index.js'
import {permissionsSeenAfterPull} from '../shared/permissions-seen.js'
import type {RemoteDetail, RemoteItem} from '../shared/remote.js'
import {permissionsAsRecorded} from '../shared/declared-permissions.js'
import type {PullOp} from './plan.js'
import type {ApplyRun, KeyedEntry, StateBook} from './run.js'

/** Each id's state entry with its key. */
export function entriesOf(state: SyncState): Map<string, KeyedEntry> {
  const byId = new Map<string, KeyedEntry>()
  for (const [key, entry] of Object.entries(state.items)) if (entry.id) byId.set(entry.id, {key, entry})
  return byId
}

/** The book of a run over `state` as it is before the pull. */
export function openBook(state: SyncState): StateBook {
  return {before: entriesOf(state), after: new Map(), keyNow: new Map()}
}

/** Notes where each entry is keyed now (after the moves). */
export function noteKeys(book: StateBook, state: SyncState): void {
  for (const [key, entry] of Object.entries(state.items)) if (entry.id) book.keyNow.set(entry.id, key)
}

/**
 * Records `op`'s item as pulled: in the book, and in the journal as its
 * file lands. `written` adds what the file holds (its source hash).
 */
export function recordPulled(
  run: ApplyRun,
  op: PullOp,
  item: RemoteItem,
  detail: RemoteDetail,
  declared: LocalPermissions | undefined,
  written: {sourceHash?: string}
): void {
  const {book, context, files} = run
  const seen = permissionsSeenAfterPull(
    book.before.get(op.id)?.entry,
    item.updatedAt,
    op.id in context.remote.permissions
  )
  // A file left deferred is held in the folder (`own-copies.ts`), not missing.
  const missing = run.facts
    .get(op.id)!
    .fileUrls.some((url) => files.assets.has(url) && !files.local.has(url) && !files.deferred.has(url))
  const entry: StateEntry = {
    id: op.id,
    type: item.type,
    title: item.title,
    parentId: item.parentId,
    remoteVersion: detail.version,
    remoteUpdatedAt: item.updatedAt ?? detail.updatedAt,
    remoteHash: detail.bodyHash,
    ...(declared ? {permissionsKey: permissionsKey(declared)} : {}),
    ...(seen !== undefined ? {permissionsSeenAt: seen} : {}),
    ...(missing ? {missingFiles: true} : {})
  }
  book.after.set(op.id, {key: op.path, entry})
  const previousKey = book.keyNow.get(op.id)
  if (previousKey !== undefined && previousKey !== op.path) run.store.setItem(previousKey, undefined)
  book.keyNow.set(op.id, op.path)
  run.store.setItem(op.path, {...entry, ...written})
}

/** The state's items after the run: the entries written now, and the others where their files are. */
export function itemsAfter(run: ApplyRun): Record<string, StateEntry> {
  const {plan, context, book} = run
  const {state, scan, remote} = context
  const items: Record<string, StateEntry> = {}
  const deleted = new Set(plan.ops.filter((op) => op.op === 'delete').map((op) => op.id))
  const conflicts = new Set(plan.ops.filter((op) => op.op === 'conflict').map((op) => op.id))
  for (const [key, entry] of Object.entries(state.items)) {
    if (entry.id === undefined) items[key] = entry
    else if (!deleted.has(entry.id) && !book.after.has(entry.id)) {
      const at = plan.paths[entry.id]
      const moved = at !== undefined && scan.byPath[key] !== undefined && !conflicts.has(entry.id) ? at : key
      // Permissions read and found as recorded are known at this `updated_at`: the next pull need not read them.
      const seen = permissionsSeenAfterPull(
        entry,
        remote.items[entry.id]?.updatedAt,
        permissionsAsRecorded(remote, entry.id, entry)
      )
      items[moved] = seen === entry.permissionsSeenAt ? entry : {...entry, permissionsSeenAt: seen}
    }
  }
  for (const {key, entry} of book.after.values()) items[key] = entry
  return items
}

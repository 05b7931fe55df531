/**
 * The pull plan: a pure function of the remote tree (with the full records
 * it needed), the sync state and the scan of the folder. Per item: write a
 * new file, update a file whose remote changed (moving it when its parent
 * changed), report a conflict when the file changed locally too, delete a
 * file whose item is gone and that nobody edited since.
 */
import type {ItemType, Permissions} from '../../api/types.js'
import {permissionsKey, type Diagnostic, type LocalNode, type LocalPermissions, type ScanResult, type StateEntry, type SyncState} from '../../local/index.js'
import {permissionsNeedReading} from '../shared/permissions-seen.js'
import {bodyTrouble, type RemoteSnapshot} from '../shared/remote.js'
import {computeLayout, documentFile} from '../shared/document-layout.js'

/** What one step of a pull does. */
export type PullOpKind = 'create' | 'update' | 'move' | 'delete' | 'conflict'

/** One step of the pull plan. */
export interface PullOp {
  op: PullOpKind
  /** Repo-relative path of the document after the pull (article file or topic folder). */
  path: string
  /** Where the document is now, when it moves (or, for `delete`, where it is). */
  from?: string
  /** The file holding the document (`x.md`, `dir/_index.md`). */
  file: string
  id: string
  type: ItemType
  title: string
  reason: string
  /** The file is pinned by `kb_id` but the state has no baseline: a differing file is a conflict, not overwritten. */
  unverified?: boolean
  /** Unchanged on the platform: rewritten only if its text differs (links to documents that moved). */
  refresh?: boolean
}

/** The plan of a pull (serialisable). */
export interface PullPlan {
  schemaVersion: 1
  dir: string
  rootTopicId: string | null
  ops: PullOp[]
  /** Path of every remote item after the pull, by id. */
  paths: Record<string, string>
  diagnostics: Diagnostic[]
  summary: Record<PullOpKind, number>
}

/**
 * Permissions as a folder declares them: `_permissions.yml` of a topic, front
 * matter of an article; none when the item only inherits. A topic may inherit
 * and name people of its own besides; `inherit` means nothing for an article
 * (servers answer it either way), so its own people decide.
 */
export function declaredPermissions(type: ItemType, permissions: Permissions | undefined): LocalPermissions | undefined {
  if (!permissions) return undefined
  const ids = (people: Array<{id: number}>) => [...new Set(people.map((p) => p.id))].sort((a, b) => a - b)
  const readers = ids(permissions.readers ?? [])
  const editors = ids(permissions.editors ?? [])
  const ownPeople = readers.length + editors.length > 0
  if (!ownPeople && permissions.inherit !== false) return undefined
  return {...(type === 'topic' ? {inherit: permissions.inherit === false ? false : true} : {}), readers, editors}
}

/** The state entry of each id, with its key. */
function entriesById(state: SyncState): Map<string, {key: string; entry: StateEntry}> {
  const byId = new Map<string, {key: string; entry: StateEntry}>()
  for (const [key, entry] of Object.entries(state.items)) if (entry.id && !byId.has(entry.id)) byId.set(entry.id, {key, entry})
  return byId
}

/**
 * Which items need their full record read: those the state has no baseline
 * for, those whose `updated_at` moved since, and those without a file.
 */
export function itemsToRead(remote: RemoteSnapshot, state: SyncState, scan: ScanResult): string[] {
  const byId = entriesById(state)
  const layout = computeLayout(remote, state, scan)
  return Object.keys(remote.items).filter((id) => {
    const known = byId.get(id)
    const item = remote.items[id]!
    return (
      !known ||
      known.entry.remoteHash === undefined ||
      known.entry.missingFiles === true ||
      item.updatedAt === undefined ||
      item.updatedAt !== known.entry.remoteUpdatedAt ||
      !layout.current.has(id)
    )
  })
}

/** Which items need their permissions read: those whose `updated_at` moved since kbsync last saw their permissions, and new ones. */
export function permissionsToRead(remote: RemoteSnapshot, state: SyncState): string[] {
  const byId = entriesById(state)
  return Object.keys(remote.items).filter((id) => permissionsNeedReading(byId.get(id)?.entry, remote.items[id]!.updatedAt))
}

/**
 * Items whose permissions, as read, differ from those the state recorded
 * at the last sync, and whose record was not read: a permissions change on
 * the platform that a push in between hid from `remoteUpdatedAt` (it
 * recorded the new one).
 */
export function permissionsChanged(remote: RemoteSnapshot, state: SyncState): string[] {
  const byId = entriesById(state)
  return Object.keys(remote.permissions).filter((id) => {
    const entry = byId.get(id)?.entry
    if (!entry || remote.details[id] || !remote.items[id]) return false
    return !permissionsAsRecorded(remote, id, entry)
  })
}

/** Whether the permissions read for `id` are those `entry` recorded (false when they were not read). */
export function permissionsAsRecorded(remote: RemoteSnapshot, id: string, entry: StateEntry): boolean {
  const item = remote.items[id]
  if (!item || !(id in remote.permissions)) return false
  const declared = declaredPermissions(item.type, remote.permissions[id])
  return (declared ? permissionsKey(declared) : undefined) === entry.permissionsKey
}

/**
 * Computes the pull plan (pure). `remote.details` holds the records of
 * `itemsToRead`; `remote.permissions` those read. With `refreshAll` (some
 * document moves, and every record was read), unchanged documents whose
 * relative links change are re-rendered too; with `refreshEvery` (a pull
 * that moved files stopped early), every unchanged document is.
 */
export function planPull(remote: RemoteSnapshot, state: SyncState, scan: ScanResult, options: {refreshAll?: boolean; refreshEvery?: boolean} = {}): PullPlan {
  const layout = computeLayout(remote, state, scan)
  const byId = entriesById(state)
  const ops: PullOp[] = []
  const diagnostics: Diagnostic[] = []
  // Items not pulled whose document is not in the folder.
  const unwritten = new Set<string>()
  // Documents whose file moves in this pull (their folder moved, or they did): relative links to them change.
  const moved = new Set([...layout.paths].filter(([id, docPath]) => layout.current.has(id) && layout.current.get(id) !== docPath).map(([id]) => id))
  for (const [id, docPath] of layout.paths) {
    const item = remote.items[id]!
    const known = byId.get(id)
    const entry = known?.entry
    const now = layout.current.get(id)
    const detail = remote.details[id]
    const base = {path: docPath, file: documentFile(item.type, docPath), id, type: item.type, title: item.title}
    const trouble = detail ? bodyTrouble(detail) : undefined
    if (trouble) {
      // Written, the file would push back a changed body: the item is left as it is on both sides, and named.
      diagnostics.push({severity: 'warning', file: base.file, message: `"${item.title}" (${item.type} ${id}) is not pulled: kbsync cannot convert its body on the platform without loss. ${trouble.reason}`, rule: trouble.ruleId ?? 'pull-skipped'})
      // A document not in the folder gets no path: links to it keep their ids rather than name a missing file.
      if (now === undefined) unwritten.add(id)
      continue
    }
    const moving = now !== undefined && now !== docPath ? {from: now} : {}
    if (!entry) {
      if (now === undefined) ops.push({op: 'create', ...base, reason: `new ${item.type}`})
      else ops.push({op: 'update', ...base, ...moving, reason: 'found in the folder (by kb_id or title), not synced before', unverified: true})
      continue
    }
    const what: string[] = []
    if (detail && detail.bodyHash !== entry.remoteHash && !emptyAsKnown(item.type, detail.body, entry, now === undefined ? undefined : scan.byPath[now])) what.push('body')
    if (item.title !== entry.title) what.push('title')
    if (item.parentId !== entry.parentId) what.push('parent')
    if (id in remote.permissions && !permissionsAsRecorded(remote, id, entry)) what.push('permissions')
    if (entry.pending) what.push('pending')
    if (entry.missingFiles) what.push('files not downloaded before')
    if (now === undefined) {
      if (what.some((w) => w !== 'pending' && w !== 'files not downloaded before')) {
        ops.push({op: 'conflict', ...base, reason: `deleted locally, edited on the platform (${what.join(', ')})`})
      }
      continue
    }
    const node = scan.byPath[now]
    const localChanged = node !== undefined && node.sourceHash !== entry.sourceHash
    if (what.length === 0) {
      // Another document moved: relative links in this one may need rewriting (only when nobody edited it locally,
      // and only if it moves itself or names a moved document: any other file would only be rewritten in pull's own style).
      const linksMove = options.refreshEvery === true || now !== docPath || [...moved].some((movedId) => detail?.body.includes(movedId))
      if (options.refreshAll && detail && !localChanged && linksMove) ops.push({op: 'update', ...base, reason: 'links to moved documents', refresh: true})
      continue
    }
    if (localChanged && what.every((w) => w === 'files not downloaded before')) {
      // Nothing changed on the platform: the edited file wins; its files are retried when the item is pulled next.
      continue
    }
    if (localChanged) {
      ops.push({op: 'conflict', ...base, ...moving, path: now, file: documentFile(item.type, now), reason: `edited on the platform (${what.join(', ')}) and locally since the last sync`})
      continue
    }
    const op = moving.from !== undefined && what.length === 1 && what[0] === 'parent' ? 'move' : 'update'
    ops.push({op, ...base, ...moving, reason: `changed on the platform: ${what.join(', ')}`})
  }
  for (const [key, entry] of Object.entries(state.items)) {
    if (!entry.id || remote.items[entry.id] || entry.pending === 'create') continue
    const node = scan.byPath[key]
    if (!node || node.path === '') continue
    const base = {path: key, from: key, file: documentFile(entry.type, key), id: entry.id, type: entry.type, title: entry.title}
    if (node.sourceHash !== entry.sourceHash) {
      ops.push({op: 'conflict', ...base, reason: 'deleted on the platform, edited locally: the file is kept'})
    } else {
      ops.push({op: 'delete', ...base, reason: 'deleted on the platform'})
    }
  }
  const summary = Object.fromEntries((['create', 'update', 'move', 'delete', 'conflict'] as const).map((k) => [k, ops.filter((o) => o.op === k).length])) as PullPlan['summary']
  const paths = Object.fromEntries([...layout.paths].filter(([id]) => !unwritten.has(id)))
  return {schemaVersion: 1, dir: scan.dir, rootTopicId: remote.rootTopicId, ops, paths, diagnostics, summary}
}

/**
 * A topic a push matched without reading its record (it has no `_index.md`
 * body to compare, as on a run without the state) has no recorded remote
 * body: an empty one is what the folder already says, not a change to pull.
 */
function emptyAsKnown(type: string, body: string, entry: StateEntry, node: LocalNode | undefined): boolean {
  return type === 'topic' && entry.remoteHash === undefined && body.trim() === '' && node !== undefined && node.body === undefined
}

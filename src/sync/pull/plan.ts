/**
 * The pull plan: a pure function of the remote tree (with the full records
 * it needed), the sync state and the scan of the folder. Per item: write a
 * new file, update a file whose remote changed (moving it when its parent
 * changed), report a conflict when the file changed locally too, delete a
 * file whose item is gone and that nobody edited since.
 */
import type {ItemType} from '../../api/types.js'
import {type Diagnostic, type LocalNode, type ScanResult, type StateEntry, type SyncState} from '../../local/index.js'
import {type RemoteDetail, type RemoteSnapshot} from '../shared/remote.js'
import {computeLayout, fileOfNode, type Layout} from '../shared/document-layout.js'
import {entriesById, permissionsAsRecorded} from '../shared/declared-permissions.js'
import {bodyEditedRemotely, classify, editedLocally, sideState, titleEditedRemotely} from '../shared/compare.js'
import {planRenderContext} from '../shared/render-context.js'
import {goneFromRemote} from './gone.js'
import {movedBothWays} from './moved-both-ways.js'
import type {RenderContext} from '../shared/render.js'
import {holdsLocalRender} from './in-sync.js'
import {refusalOf, refusedAsListed, stayingFile} from './refused-bodies.js'
import type {NavigationEdits} from './navigation-plan.js'

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
  /** The file holds edits not pushed yet: only a merge writes it; anything else goes beside it as a conflict copy. */
  localEdits?: true
}

/** The plan of a pull (serialisable). */
export interface PullPlan {
  schemaVersion: 1
  dir: string
  rootTopicId: string | null
  ops: PullOp[]
  /** Path of every remote item after the pull, by id. */
  paths: Record<string, string>
  /** The file of every remote item after the pull, by id (`''`: a navigation section, which has none). */
  files: Record<string, string>
  /** The entries of navigation files (`SUMMARY.md`, a MkDocs `nav`) the pull adds, removes, moves or retitles. */
  navigation?: NavigationEdits[]
  /** The files (`.gitkeep`, a title's `_index.md`) that keep the folders of topics left without documents (`kept-folders.ts`). */
  keptFolders?: Array<{file: string; text: string}>
  /** The state's `refusedBodies` after the pull: the items whose body is not pulled, by id, with their `updated_at`. */
  refused: Record<string, string>
  diagnostics: Diagnostic[]
  summary: Record<PullOpKind, number>
}

/**
 * Which items need their full record read: those the state has no baseline
 * for, those whose `updated_at` moved since, and those without a file.
 * `layout` is `computeLayout(remote, state, scan)`, when the caller has it.
 */
export function itemsToRead(
  remote: RemoteSnapshot,
  state: SyncState,
  scan: ScanResult,
  layout: Layout = computeLayout(remote, state, scan)
): string[] {
  const byId = entriesById(state)
  return Object.keys(remote.items).filter((id) => {
    const known = byId.get(id)
    const item = remote.items[id]!
    // A body refused at this `updated_at` would be refused again: the listing decides.
    if (refusedAsListed(state, id, item)) return false
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

/**
 * Computes the pull plan (pure). `remote.details` holds the records of
 * `itemsToRead`; `remote.permissions` those read. With `refreshAll` (some
 * document moves, and every record was read), unchanged documents whose
 * relative links change are re-rendered too; with `refreshEvery` (a pull
 * that moved files stopped early), every unchanged document is. `layout` is
 * `computeLayout(remote, state, scan)`, when the caller has it (it does not
 * depend on the records read).
 */
export function planPull(
  remote: RemoteSnapshot,
  state: SyncState,
  scan: ScanResult,
  options: {refreshAll?: boolean; refreshEvery?: boolean} = {},
  layout: Layout = computeLayout(remote, state, scan)
): PullPlan {
  const gone = goneFromRemote(remote, state, scan)
  const run: PullPlanning = {
    remote,
    state,
    scan,
    options,
    layout,
    byId: entriesById(state),
    ops: [],
    diagnostics: [],
    unwritten: new Set(),
    refused: {},
    moved: movedDocuments(layout, gone)
  }
  for (const [id, docPath] of layout.paths) planItem(run, id, docPath)
  const {ops, diagnostics} = run
  ops.push(...gone)
  const summary = Object.fromEntries(
    (['create', 'update', 'move', 'delete', 'conflict'] as const).map((k) => [k, ops.filter((o) => o.op === k).length])
  ) as PullPlan['summary']
  const paths = Object.fromEntries([...layout.paths].filter(([id]) => !run.unwritten.has(id)))
  const files = Object.fromEntries(Object.keys(paths).map((id) => [id, layout.files.get(id) ?? '']))
  const {refused} = run
  return {
    schemaVersion: 1,
    dir: scan.dir,
    rootTopicId: remote.rootTopicId,
    ops,
    paths,
    files,
    refused,
    diagnostics,
    summary
  }
}

/** What planning a pull reads and gathers. */
interface PullPlanning {
  remote: RemoteSnapshot
  state: SyncState
  scan: ScanResult
  options: {refreshAll?: boolean; refreshEvery?: boolean}
  layout: Layout
  byId: Map<string, {key: string; entry: StateEntry}>
  ops: PullOp[]
  diagnostics: Diagnostic[]
  /** Items not pulled whose document is not in the folder. */
  unwritten: Set<string>
  /** Items whose body is not pulled, with the `updated_at` it was refused at (`refused-bodies.ts`). */
  refused: Record<string, string>
  /** Documents whose file moves or goes in this pull (moved, in a moved folder, deleted): relative links to them change. */
  moved: Set<string>
  /** The render context of the folder, made when first needed. */
  context?: RenderContext
}

/** Documents whose file moves, and (their file goes: links to them change as to a moved one) those deleted. */
function movedDocuments(layout: Layout, gone: readonly PullOp[]): Set<string> {
  const moves = [...layout.paths].filter(([id, at]) => layout.current.has(id) && layout.current.get(id) !== at)
  return new Set([...moves.map(([id]) => id), ...gone.filter((op) => op.op === 'delete').map((op) => op.id)])
}

/** As push renders: whether the remote body is what the file already says (no edit to pull, nor a conflict). */
function rendersAs(run: PullPlanning, node: LocalNode | undefined, detail: RemoteDetail): boolean {
  if (node?.body === undefined) return false
  run.context ??= planRenderContext(
    run.scan,
    run.remote,
    new Map([...run.layout.current].map(([id, at]) => [at, id])),
    run.state
  )
  return holdsLocalRender(node, detail, run.context)
}

/** Whether `detail` cannot be pulled without loss (or was refused at this `updated_at`): left alone on both sides, recorded. */
function skipUnconvertible(run: PullPlanning, id: string, file: string, detail: RemoteDetail | undefined): boolean {
  const refusal = refusalOf(run.state, {id, item: run.remote.items[id]!, detail, file})
  if (!refusal) return false
  if (refusal.stamp !== undefined) run.refused[id] = refusal.stamp
  if (refusal.diagnostic) run.diagnostics.push(refusal.diagnostic)
  const from = run.moved.has(id) ? run.scan.byPath[run.layout.current.get(id)!]?.file : undefined
  if (from !== undefined && from !== file) run.diagnostics.push(stayingFile(run.remote.items[id]!, id, from, file))
  // A document not in the folder gets no path: links to it keep their ids rather than name a missing file.
  if (!run.layout.current.has(id)) run.unwritten.add(id)
  return true
}

/** What changed on the platform since the base, in words (`pending` and files to fetch again are reasons to read, not edits). */
function remoteChanges(run: PullPlanning, id: string, entry: StateEntry, node: LocalNode | undefined): string[] {
  const item = run.remote.items[id]!
  const detail = run.remote.details[id]
  const what: string[] = []
  const holdsLocal = () =>
    detail !== undefined && (emptyAsKnown(item.type, detail.body, entry, node) || rendersAs(run, node, detail))
  if (detail && bodyEditedRemotely(detail, entry, holdsLocal)) what.push('body')
  if (titleEditedRemotely(item, entry, node)) what.push('title')
  if (item.parentId !== entry.parentId) what.push('parent')
  if (id in run.remote.permissions && !permissionsAsRecorded(run.remote, id, entry)) what.push('permissions')
  if (entry.pending) what.push('pending')
  if (entry.missingFiles) what.push('files not downloaded before')
  return what
}

/**
 * The web changes a file edited locally follows a move with: the merge
 * writes each of them (the body's blocks, the title where the file keeps it,
 * an article's `permissions`). Kept where it was, such a file was merged in
 * place and the next push moved the article back: the web move silently lost.
 */
const followsMove = new Set(['parent', 'title', 'body', 'permissions'])

/** Plans one remote item, to be at `docPath`. */
function planItem(run: PullPlanning, id: string, docPath: string): void {
  const {remote, ops} = run
  const item = remote.items[id]!
  const entry = run.byId.get(id)?.entry
  const now = run.layout.current.get(id)
  const detail = remote.details[id]
  // `''`: a navigation section, which has no file (its entry is all it is).
  const base = {path: docPath, file: run.layout.files.get(id) ?? '', id, type: item.type, title: item.title}
  if (skipUnconvertible(run, id, base.file, detail)) return
  const moving = now !== undefined && now !== docPath ? {from: now} : {}
  if (!entry) {
    const unverified = {
      ...moving,
      reason: 'found in the folder (by kb_id or title), not synced before',
      unverified: true
    }
    ops.push(
      now === undefined ? {op: 'create', ...base, reason: `new ${item.type}`} : {op: 'update', ...base, ...unverified}
    )
    return
  }
  const node = now === undefined ? undefined : run.scan.byPath[now]
  const what = remoteChanges(run, id, entry, node)
  const edited = what.some((w) => w !== 'pending' && w !== 'files not downloaded before')
  if (now === undefined) {
    if (classify({base: true, local: 'absent', remote: sideState(true, edited)}) === 'conflict') {
      ops.push({op: 'conflict', ...base, reason: `deleted locally, edited on the platform (${what.join(', ')})`})
    }
    return
  }
  const localChanged = node !== undefined && editedLocally(node, entry)
  if (what.length === 0) {
    // Another document moved: relative links in this one may need rewriting (only when nobody edited it locally,
    // and only if it moves itself or names a moved document: any other file would only be rewritten in pull's own style).
    const linksMove =
      run.options.refreshEvery === true ||
      now !== docPath ||
      [...run.moved].some((movedId) => detail?.body.includes(movedId))
    if (run.options.refreshAll && detail && !localChanged && linksMove)
      ops.push({op: 'update', ...base, reason: 'links to moved documents', refresh: true})
    return
  }
  // Nothing changed on the platform but files to fetch: the edited file wins; its files are retried when the item is pulled next.
  if (localChanged && what.every((w) => w === 'files not downloaded before')) return
  const op = moving.from !== undefined && what.length === 1 && what[0] === 'parent' ? 'move' : 'update'
  const both = what.includes('parent') ? movedBothWays(run.byId.get(id)?.key, now, docPath) : undefined
  if (both) run.diagnostics.push(both)
  const movedHere = moving.from !== undefined && what.includes('parent')
  if (localChanged && movedHere && what.every((w) => followsMove.has(w))) {
    // Moved on the web, edited here: the file follows the move (as `git mv` would), and the merge keeps its edits.
    const reason = `changed on the platform (${what.join(', ')}), edited locally: merged`
    ops.push({op, ...base, ...moving, localEdits: true, reason})
    return
  }
  if (localChanged) {
    const reason = `edited on the platform (${what.join(', ')}) and locally since the last sync`
    ops.push({op: 'conflict', ...base, ...moving, path: now, file: fileOfNode(run.scan, now, item.type), reason})
    return
  }
  ops.push({op, ...base, ...moving, reason: `changed on the platform: ${what.join(', ')}`})
}

/**
 * A topic a push matched without reading its record (it has no `_index.md`
 * body to compare, as on a run without the state) has no recorded remote
 * body: an empty one is what the folder already says, not a change to pull.
 */
function emptyAsKnown(type: string, body: string, entry: StateEntry, node: LocalNode | undefined): boolean {
  return (
    type === 'topic' &&
    entry.remoteHash === undefined &&
    body.trim() === '' &&
    node !== undefined &&
    node.body === undefined
  )
}

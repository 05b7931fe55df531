/**
 * The plan: a pure function of the scan, the remote snapshot, the sync state
 * and the matching. It decides per document whether to create, update (body),
 * rename (title), move (parent), set permissions or upload files, detects web
 * edits (drift, conflicts) and lists remote items no file maps to (deleted
 * only with `--prune`, and only when safe).
 */
import {countSeverities, type LocalNode, type ScanResult, type SyncState} from '../../local/index.js'
import type {Matching} from '../shared/match.js'
import type {RemoteSnapshot} from '../shared/remote.js'
import {planRenderContext} from '../shared/render-context.js'
import {releaseRender} from '../shared/render.js'
import type {OpKind, Orphan, PlanOp, PlanOptions, PushPlan} from '../shared/types.js'
import type {ArchiveTopic} from '../shared/archive.js'
import type {NoticeSettings} from '../shared/notice.js'
import {findOrphans, orderDeletions, orphanModeOf} from './orphans.js'
import {archiveTitleTaken, planArchives} from './plan-archive.js'
import {attachContext} from './plan-context.js'
import {findTwins, twinWarning} from './twins.js'
import {planDocument, type PlanRun} from './plan-document.js'

export type {PlanOptions} from '../shared/types.js'

/** Every kind of step a plan holds, in the order its summary counts them. */
export const opKinds = [
  'create',
  'update',
  'move',
  'rename',
  'delete',
  'archive',
  'permissions',
  'upload',
  'conflict',
  'drift'
] as const

/**
 * Computes the plan (pure: reads only its arguments). `archive`: the archive
 * topic `hideArchive` took out of `remote` (`onOrphan: archive`).
 */
export function computePlan(
  scan: ScanResult,
  remote: RemoteSnapshot,
  state: SyncState,
  matching: Matching,
  options: PlanOptions,
  extras: {archive?: ArchiveTopic; notice?: NoticeSettings; lockPending?: boolean} = {}
): PushPlan {
  const {archive, notice, lockPending} = extras
  const run = startRun(scan, remote, state, matching, options, notice)
  // Every document in tree order, with an explicit stack: a folder chain may be deeper than a recursion can go.
  const stack: LocalNode[] = [scan.root]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.path !== '') {
      const first = run.ops.length
      planDocument(run, node)
      letGoOfRender(node, run.ops.slice(first))
    }
    if (node.kind === 'topic') for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!)
  }
  const orphans = findOrphans(remote, matching.ids, state, scan)
  const deletions = planDeletions(run, orphans)
  const checked = archive ? archiveTitleTaken(scan.root, archive) : undefined
  if (checked?.refused) run.kept.push(checked.refused)
  const archived = checked && orphanModeOf(options) === 'archive' ? planArchives(run, orphans, checked) : 0
  const twinDeletions = planTwins(run, orphans)
  forgetGone(run)
  const plan = assemblePlan(run, orphans, deletions.length + twinDeletions + archived)
  return attachContext(plan, {
    scan,
    state,
    remote,
    matching,
    refresh: run.refresh,
    forget: run.forget,
    ...(checked ? {archive: checked} : {}),
    ...(notice ? {notice} : {}),
    ...(lockPending ? {lockPending} : {})
  })
}

/**
 * Drops what comparing `node` parsed and rendered once its `ops` are known:
 * a body that is not written needs neither again, and one that is keeps only
 * its rendered text (the apply sends it; its tree is parsed again only if
 * its render changes meanwhile). A create keeps the tree the scan kept, if
 * any: it was not rendered yet. So a plan holds no tree per document.
 */
function letGoOfRender(node: LocalNode, ops: readonly PlanOp[]): void {
  const writes = ops.some((op) => op.op === 'create' || op.changes?.includes('body'))
  if (!writes) releaseRender(node)
  else if (!ops.some((op) => op.op === 'create')) delete node.tree
}

/** An empty run over the plan's inputs. */
function startRun(
  scan: ScanResult,
  remote: RemoteSnapshot,
  state: SyncState,
  matching: Matching,
  options: PlanOptions,
  notice: NoticeSettings | undefined
): PlanRun {
  const keyOfId = new Map<string, string>()
  for (const [key, entry] of Object.entries(state.items)) if (entry.id) keyOfId.set(entry.id, key)
  const context = planRenderContext(scan, remote, matching.ids, state, notice)
  return {
    scan,
    remote,
    state,
    matching,
    options,
    context,
    ops: [],
    refresh: {},
    forget: [],
    kept: [],
    uploads: new Set(),
    keyOfId
  }
}

/** With `--prune` (and a folder that has articles): the prunable orphans' deletions, children first. */
function planDeletions(run: PlanRun, orphans: Orphan[]): Orphan[] {
  const {remote, scan, options} = run
  const canPrune = orphanModeOf(options) === 'delete' && scan.articleCount > 0
  const deletions = canPrune
    ? orderDeletions(
        orphans.filter((o) => o.prunable),
        remote
      )
    : []
  for (const orphan of deletions) {
    run.ops.push({
      op: 'delete',
      path: orphan.path ?? '',
      type: orphan.type,
      remoteId: orphan.remoteId,
      title: orphan.title,
      parentId: remote.items[orphan.remoteId]!.parentId,
      reason: orphan.reason
    })
  }
  return deletions
}

/** Warns about each twin of a tracked item; with `--remove-twins`, deletes the removable ones (children first). Returns how many. */
function planTwins(run: PlanRun, orphans: Orphan[]): number {
  const {remote, matching, options} = run
  const twins = findTwins(remote, orphans, new Set(matching.ids.values()))
  const byId = new Map(orphans.map((orphan) => [orphan.remoteId, orphan]))
  for (const twin of twins) {
    run.kept.push(twinWarning(twin, remote))
    const orphan = byId.get(twin.remoteId)!
    orphan.reason = `a twin of ${twin.of}${twin.removable ? ' (kbsync push --remove-twins deletes it)' : ', holding items that are not twins: left alone'}`
  }
  if (!options.removeTwins) return 0
  const removable = twins.filter((twin) => twin.removable)
  const of = new Map(removable.map((twin) => [twin.remoteId, twin.of]))
  const ordered = orderDeletions(
    removable.map((twin) => byId.get(twin.remoteId)!),
    remote
  )
  for (const orphan of ordered) {
    run.ops.push({
      op: 'delete',
      path: '',
      type: orphan.type,
      remoteId: orphan.remoteId,
      title: orphan.title,
      parentId: remote.items[orphan.remoteId]!.parentId,
      reason: `a twin of ${of.get(orphan.remoteId)!} (same parent, same title)`,
      twinOf: of.get(orphan.remoteId)!
    })
  }
  return ordered.length
}

/** State keys of documents gone from the folder whose items are gone from the remote too. */
function forgetGone(run: PlanRun): void {
  for (const [key, entry] of Object.entries(run.state.items)) {
    if (!(key in run.scan.byPath) && (entry.id === undefined || !run.remote.items[entry.id])) run.forget.push(key)
  }
}

/** The plan as plain data: ops, diagnostics, gates, counts, and the options it was computed with (its fingerprint: `fingerprinted`). */
function assemblePlan(run: PlanRun, orphans: Orphan[], deletions: number): PushPlan {
  const {scan, remote, matching, options, ops} = run
  const diagnostics = [...scan.diagnostics, ...matching.diagnostics, ...run.kept]
  if (orphanModeOf(options) !== 'keep' && scan.articleCount === 0) {
    diagnostics.push({
      severity: 'warning',
      message: `The folder has no articles: nothing is ${orphanModeOf(options) === 'delete' ? 'pruned' : 'archived'} (an empty or broken checkout looks like mass deletion)`,
      rule: 'prune-empty-scan'
    })
  }
  const summary = Object.fromEntries(
    opKinds.map((kind) => [kind, ops.filter((op) => op.op === kind).length])
  ) as Record<OpKind, number>
  return {
    schemaVersion: 1,
    dir: scan.dir,
    rootTopicId: remote.rootTopicId,
    ops,
    orphans,
    diagnostics,
    blocked: diagnostics.some((d) => d.severity === 'error'),
    needsConfirmation: deletions > (options.maxDeletions ?? 10) && !options.yes,
    ...(options.maxWarnings !== undefined && countSeverities(diagnostics).warnings > options.maxWarnings
      ? {warningLimit: options.maxWarnings}
      : {}),
    summary,
    options: planOptionsOf(options)
  }
}

/** The options that shaped a plan, as plain data (a `PushOptions` passed in carries a client and callbacks too). */
function planOptionsOf(options: PlanOptions): PlanOptions {
  const {prune, onOrphan, archiveTopic, notice, lock, force, yes, maxDeletions, maxWarnings, removeTwins} = options
  const kept = {prune, onOrphan, archiveTopic, notice, lock, force, yes, maxDeletions, maxWarnings, removeTwins}
  return JSON.parse(JSON.stringify(kept)) as PlanOptions
}

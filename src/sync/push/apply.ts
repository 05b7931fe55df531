/**
 * `applyPush`: carries out a plan. Documents are written in dependency order
 * (parents before children, link targets before the documents linking to
 * them, the uploader of a file before the other documents using it, new
 * siblings in the scanned order: `creation-order.ts`), at most
 * `concurrency` at a time. When only a link cycle remains, one of its
 * documents is created with its own text (links to documents not created
 * yet written as their text, never a placeholder), which breaks the cycle; it
 * is written whole once the others exist. Deletions (prune) and moves
 * under the archive come last and only if every other step succeeded.
 */
import {assetHashesByPath, StateStore} from '../../local/index.js'
import {recordBases} from '../shared/bases.js'
import {snapshotState} from '../shared/state-digest.js'
import {writeConflictFile} from '../shared/conflicts.js'
import {guardedClient, urlGuard} from '../shared/foreign-urls.js'
import {LocalFaultError, localWriteFailureOf, pushChanges} from '../shared/local-fault.js'
import {messageOf, type RunState} from './item-step.js'
import {contextOf} from './plan-context.js'
import {deleteOrphans} from './prune.js'
import {provisionalTrees} from './provisional-trees.js'
import {runListings} from './late-edit.js'
import {archiveOrphans} from './archive.js'
import {learningClient} from './lock.js'
import {lockAfterWrites} from './lock-step.js'
import {halted, runTasks, stoppedBy} from './scheduler.js'
import {isStopped, StoppedError} from '../shared/stopped.js'
import {byPriority, tasksOf} from './tasks.js'
import type {PlanOp, PushOptions, PushPlan, PushResult} from '../shared/types.js'

/** Applies `plan` (made by `planPush` with the same options). */
export async function applyPush(plan: PushPlan, given: PushOptions): Promise<PushResult> {
  const result: PushResult = {plan, status: 'ok', done: [], skipped: [], failed: [], written: [], writes: 0}
  if (plan.blocked || plan.warningLimit !== undefined) return {...result, status: 'invalid'}
  if (plan.needsConfirmation && !given.yes) return {...result, status: 'refused'}
  const context = contextOf(plan)
  const store = new StateStore(context.scan.dir, context.state)
  const options = {...given, client: runClient(given, store)}
  const emit = options.onEvent ?? (() => undefined)
  const run: RunState = {
    context,
    options,
    store,
    ids: new Map(context.matching.ids),
    assetHashes: assetHashesByPath(context.scan.assets),
    guids: new Map(),
    owners: new Map(),
    failedPaths: new Map(),
    uploadOps: new Map(plan.ops.filter((op) => op.op === 'upload').map((op) => [op.sha256!, op])),
    written: result.written,
    writes: 0,
    lateConflicts: 0,
    provisionalTrees: provisionalTrees(),
    listings: runListings(options.client),
    emit: (event) => {
      if (event.type === 'done') (event.skipped ? result.skipped : result.done).push(event.op)
      if (event.type === 'failed') result.failed.push({op: event.op, error: event.error})
      emit(event)
    }
  }
  // A plan with nothing to write (a no-op push) rewrites the state only if the plan's refresh changed it.
  const initial = plan.ops.every((op) => op.op === 'drift') ? snapshotState(store.state) : undefined
  const changed = () => initial === undefined || initial.changed(store.state)
  try {
    recordRefresh(run)
    if (changed()) await store.save()
    for (const op of plan.ops.filter((o) => o.op === 'conflict')) {
      try {
        const file = await writeConflictFile(run, op)
        result.written.push(file)
        run.emit({type: 'conflict-file', op, file})
      } catch (error) {
        if (localWriteFailureOf(error)) throw error
        run.emit({type: 'failed', op, error: messageOf(error)})
      }
    }
    for (const op of plan.ops.filter((o) => o.op === 'drift'))
      emit({type: 'done', op, skipped: true, note: 'left as is'})
    const concurrency = options.concurrency ?? 8
    await runTasks(run, byPriority(tasksOf(plan, context.scan.byPath, concurrency)), concurrency)
    if (!halted(run)) await lockAfterWrites(run)
    await orphanStep(run, result, 'delete', deleteOrphans, 'not pruned')
    await orphanStep(run, result, 'archive', archiveOrphans, 'not archived')
    if (changed()) await store.save()
    // The bases of pull's merges: each file as this push left it in sync (`shared/bases.ts`); a stopped run leaves them to the next.
    if (!isStopped(options.signal)) await recordBases(context.scan, store.state)
  } catch (error) {
    const local = localWriteFailureOf(error)
    if (!local) throw error
    run.localFault ??= store.stopped ?? local
  } finally {
    // The journal is open while the steps append to it; a throw on the way must not leave it so.
    await store.close()
  }
  // A full disk (or the like) stopped the run: one message for the whole run, with what it did.
  const fault = stoppedBy(run)
  if (fault) throw new LocalFaultError(fault, 'push', pushChanges(result.done))
  if (isStopped(options.signal))
    throw new StoppedError('push', writeCount(result.done), writeCount(plan.ops), options.signal!.reason)
  result.writes = run.writes
  result.status =
    result.failed.length > 0 ? 'failed' : plan.summary.conflict + run.lateConflicts > 0 ? 'conflict' : 'ok'
  return result
}

/**
 * The client of a run: every body checked for URLs of another knowledge base
 * (the state per target keeps them apart); with `lock`, the account its write
 * answers name kept in the state as the publishing account.
 */
function runClient(given: PushOptions, store: StateStore): PushOptions['client'] {
  const label = store.state.target?.label ?? 'this knowledge base'
  const guarded = guardedClient(given.client, urlGuard(store.state), label)
  if (!given.lock) return guarded
  return learningClient(guarded, (person) => {
    store.state.publisher = person
  })
}

/**
 * The orphans' step of kind `kind` (prune's deletions, the archive's moves),
 * run once every write of the run succeeded; after a failed step each is
 * reported skipped (`not pruned: …`), since a folder half pushed names its
 * documents only in part.
 */
async function orphanStep(
  run: RunState,
  result: PushResult,
  kind: 'delete' | 'archive',
  act: (run: RunState, ops: PlanOp[]) => Promise<void>,
  skipped: string
): Promise<void> {
  const orphans = result.plan.ops.filter((op) => op.op === kind)
  if (orphans.length === 0 || halted(run)) return
  if (result.failed.length === 0) await act(run, orphans)
  else
    for (const op of orphans)
      run.emit({type: 'done', op, skipped: true, note: `${skipped}: another step of this run failed`})
}

/** Records what the plan learned without any request: matched items, refreshed baselines; drops stale keys. */
function recordRefresh(run: RunState): void {
  const {state} = run.store
  for (const key of run.context.forget) {
    const entry = state.items[key]
    const movedTo = [...run.ids].find(([, id]) => id === entry?.id)?.[0]
    if (movedTo !== undefined && movedTo !== key && !state.items[movedTo]?.id) state.items[movedTo] = {...entry!}
    delete state.items[key]
  }
  for (const [key, entry] of Object.entries(run.context.refresh)) state.items[key] = entry
}

/** How many of `ops` write to the platform (a conflict or drift is written, if at all, beside its file). */
function writeCount(ops: readonly PlanOp[]): number {
  return ops.filter((op) => op.op !== 'conflict' && op.op !== 'drift').length
}

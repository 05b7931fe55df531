/**
 * `applyPull`: carries out a pull plan, step by step, each in its module:
 * moves (`moves.ts`), the files bodies use (`downloads.ts`), documents
 * (`documents.ts`: adoption, conflict copies, permission files), adopted
 * documents' downloads dropped (`adoption.ts`), deletions
 * (`deletions.ts`), the state (`state-book.ts`), and last the check that
 * every pulled document renders back as push will render it (`verify.ts`).
 */
import {StateStore} from '../../local/index.js'
import {LocalFaultError, localWriteFailureOf, pullChanges} from '../shared/local-fault.js'
import {dropAdoptedDownloads, prepareAdoption} from './adoption.js'
import {applyDeletions} from './deletions.js'
import {downloadFiles, plannedFiles} from './downloads.js'
import {pullDocuments} from './documents.js'
import {applyMoves, movesOf, rekeyMoved} from './moves.js'
import {rewriteIncludeNames} from './include-names.js'
import type {PullOp, PullPlan} from './plan.js'
import type {PullContext} from './pull.js'
import {pullBodyTask, type BodyFacts} from './body-task.js'
import type {ApplyRun} from './run.js'
import {itemsAfter, noteKeys, openBook} from './state-book.js'
import {snapshotState} from '../shared/state-digest.js'
import {verifyPulled} from './verify.js'
import {applyNavigation} from './navigation-apply.js'
import {recordBases} from '../shared/bases.js'
import type {PullOptions, PullResult} from './types.js'
import {isStopped, StoppedError} from '../shared/stopped.js'

/** The run of `plan`: an empty result, the state store, the book of entries before the pull. */
function startRun(plan: PullPlan, context: PullContext, options: PullOptions): ApplyRun {
  const result: PullResult = {
    plan,
    status: 'ok',
    written: [],
    conflicts: [],
    failed: [],
    diagnostics: [...plan.diagnostics]
  }
  const emit = options.onEvent ?? (() => undefined)
  return {
    dir: context.scan.dir,
    plan,
    context,
    options,
    result,
    store: new StateStore(context.scan.dir, context.state),
    book: openBook(context.state),
    facts: new Map(),
    files: {assets: new Map(), local: new Map(), downloadedNow: new Set(), deferred: new Map()},
    canonical: new Map(),
    mergedBases: new Map(),
    predictions: new Map(),
    recorded: false,
    emit,
    fail(op: PullOp, error: unknown) {
      // A full disk is the run's fault, not this document's: the pull stops here and says so once; so does a stop.
      if (localWriteFailureOf(error) || isStopped(options.signal)) throw error
      const message = error instanceof Error ? error.message : String(error)
      result.failed.push({op, error: message})
      emit({type: 'failed', op, error: message})
    }
  }
}

/** Moves the documents that move, and records the moves at once: a pull stopped from here on finds the files where they now are, and rewrites the links to them. */
async function moveDocuments(run: ApplyRun, moves: readonly PullOp[]): Promise<void> {
  applyMoves(run.dir, moves, run.result)
  if (moves.length > 0) {
    rekeyMoved(run.context.state, moves)
    run.context.state.linksPending = true
    await run.store.save()
    run.recorded = true
  }
  await rewriteIncludeNames(run, moves)
  noteKeys(run.book, run.context.state)
}

/** What the remote body of each of `ops` holds (parsed as its record arrived, else now). */
function factsOf(context: PullContext, ops: readonly PullOp[]): Map<string, BodyFacts> {
  const body = (op: PullOp) => ({body: context.remote.details[op.id]!.body, title: op.title})
  return new Map(ops.map((op) => [op.id, context.facts.get(op.id) ?? pullBodyTask(body(op)).facts]))
}

/** Applies `plan` (made by `planPullRun` with the same options). */
export async function applyPull(plan: PullPlan, context: PullContext, options: PullOptions): Promise<PullResult> {
  const run = startRun(plan, context, options)
  const {state, remote} = context
  // A pull that changes nothing leaves the state file as it is (it may be committed: no noise in git).
  const initial = snapshotState(state)
  const moves = movesOf(plan)
  try {
    await moveDocuments(run, moves)
    const textOps = plan.ops.filter((op) => op.op !== 'delete' && remote.details[op.id] !== undefined)
    run.facts = factsOf(context, textOps)
    run.files = plannedFiles(run, textOps, run.facts)
    await downloadFiles(run)
    const adoption = await prepareAdoption(run)
    await pullDocuments(run, adoption, textOps)
    dropAdoptedDownloads(run, adoption, textOps)
    applyDeletions(run, moves)
    await applyNavigation(run, plan.navigation ?? [])
    state.items = itemsAfter(run)
    delete state.linksPending
    if (Object.keys(plan.refused).length > 0) state.refusedBodies = plan.refused
    else delete state.refusedBodies
    const scan = await verifyPulled(run)
    if (run.recorded || initial.changed(state)) await run.store.save()
    await run.store.close()
    // The bases of the next pull's merges: each file as this pull left it in sync (or its platform side, merged).
    await recordBases(
      scan,
      state,
      [...run.mergedBases.values()].map((merged) => merged.text)
    )
  } catch (error) {
    if (isStopped(options.signal)) throw await stopped(run)
    const local = localWriteFailureOf(error)
    if (!local) throw error
    // What was pulled is in the journal (replayed by the next run); the whole state is not rewritten on a full disk.
    await run.store.close().catch(() => undefined)
    throw new LocalFaultError(local, 'pull', pullChanges(run.result.written))
  } finally {
    context.prefetch.clear()
  }
  const {result} = run
  const unresolved = plan.ops.some((op) => op.op === 'conflict' && !run.book.after.has(op.id))
  result.status = result.failed.length > 0 ? 'failed' : result.conflicts.length > 0 || unresolved ? 'conflict' : 'ok'
  return result
}

/**
 * The end of a run its signal stopped: each document written so far is in
 * the journal (closed here), the rest (deletions, the whole state, the
 * check) is the next run's.
 */
async function stopped(run: ApplyRun): Promise<StoppedError> {
  await run.store.close().catch(() => undefined)
  const planned = run.plan.ops.filter((op) => !op.refresh && op.op !== 'conflict')
  const done = planned.filter((op) => run.book.after.has(op.id)).length
  return new StoppedError('pull', done, planned.length, run.options.signal!.reason)
}

/**
 * A watch session: the folder's watcher (its path filter, its rules for links
 * and unreadable folders) -> batcher -> size-stable check -> one push through
 * the engine -> a status line. A batch is completed from the disk with what
 * the watcher did not report under its new folders (unreported.ts). Errors are reported and the session goes on
 * (failures retry after a backoff, invalid input waits for the next change);
 * a warning about an entry the scan skipped (a link loop) is said once, not
 * on every push. The first push shows the tree's grouped messages; later
 * ones only the messages of the files just saved (and every error, since
 * errors block the push), not every warning of the tree again.
 */
import {StoppedError} from '../../sync/index.js'
import type {Diagnostic} from '../../local/index.js'
import {isSkipNotice} from '../../local/walk.js'
import {createPathFilter, firstSkipNotices, watchTree} from '../../local/watch.js'
import type {PushResult, SyncEvent} from '../../sync/shared/types.js'
import type {Reporter} from '../output/index.js'
import {warningLimitExceeded} from '../output/warning-limit.js'
import {createBatcher, describeBatch, type Batch, type ChangeKind, type RunOutcome} from './batch.js'
import {filesStable} from './stable.js'
import {completeBatch, echoes, signUnreported} from './unreported.js'
import {eventPrinter} from '../output/events.js'
import {resultLine} from '../output/lines.js'
import {pushedNames} from './pushed-names.js'

/** What happened to one batch (for the status line and for tests). */
export interface BatchReport {
  batch: Batch
  /** The push status, `error` when it threw, `unstable` when files were still being written. */
  status: PushResult['status'] | 'error' | 'unstable'
  result?: PushResult
  error?: string
}

/** Options of `startWatchSession`. */
export interface WatchSessionOptions {
  /** The watched folder (absolute). */
  dir: string
  /** Quiet time before a burst is pushed (ms). */
  debounceMs: number
  /** Extra gitignore-style patterns watch does not react to. */
  ignore?: readonly string[]
  reporter: Reporter
  /** One push of the whole folder through the engine, with `onEvent` for progress; `changed`: the paths saved since the last push. */
  push(onEvent: (event: SyncEvent) => void, changed: readonly string[]): Promise<PushResult>
  /** How long a changed file's size and mtime must hold still before a push (default 100 ms). */
  stabilityMs?: number
  /** Backoff before the n-th retry after a failure (default 1 s doubling to 30 s). */
  backoffMs?(attempt: number): number
  /** Called after each batch. */
  onBatch?(report: BatchReport): void
  /** Push once at start so the remote matches before the first change (default true). */
  initialPush?: boolean
}

/** A running session. */
export interface WatchSession {
  /** Resolves when no batch is pending or running. */
  idle(): Promise<void>
  /** Stops watching; waits for a running push (its state is saved as each step lands). */
  close(): Promise<void>
}

const fileKinds = new Set<ChangeKind>(['add', 'change'])

/** Starts watching `options.dir`; resolves once chokidar is ready (and the first push is scheduled). */
export async function startWatchSession(options: WatchSessionOptions): Promise<WatchSession> {
  const {dir, reporter} = options
  const filter = await createPathFilter(dir, options.ignore)
  const stabilityMs = options.stabilityMs ?? 100
  const firstSkip = firstSkipNotices()
  // Errors are said on every push they block ("fix the errors above"); a skipped link once.
  const worthShowing = (d: Diagnostic): boolean => d.severity === 'error' || !isSkipNotice(d) || firstSkip(d)
  // After the first push, the messages of the files just saved: the rest of the tree's were shown already.
  const ofSaved =
    (saved: ReadonlySet<string>) =>
    (d: Diagnostic): boolean =>
      d.severity === 'error' || (isSkipNotice(d) ? firstSkip(d) : d.file !== undefined && saved.has(d.file))

  const echoed = echoes()
  const run = async (reported: Batch): Promise<RunOutcome> => {
    const batch = await completeBatch(dir, reported, echoed, (file, isDir) => filter.relevant(file, isDir))
    if (!batch) return 'ok' // only the watcher's late reports of entries pushed unchanged
    const files = batch.changes.filter((c) => fileKinds.has(c.kind)).map((c) => c.path)
    if (!(await filesStable(dir, files, stabilityMs))) {
      // Still being written: the same changes go round again after the quiet time.
      for (const change of batch.changes) batcher.add(change)
      options.onBatch?.({batch, status: 'unstable'})
      return 'wait'
    }
    if (batch.changes.some((c) => c.path === '.kbsyncignore')) await filter.reload()
    // The start's own sync (alone or with saves made meanwhile) shows the whole tree's messages.
    const initial = batch.changes.some((c) => c.kind === 'sync')
    const label = batch.changes.every((c) => c.kind === 'sync') ? 'initial push' : describeBatch(batch)
    reporter.status(`${stamp()} pushing (${label})…`)
    const signed = await signUnreported(dir, batch)
    try {
      const saved = batch.changes.filter((c) => c.kind !== 'sync').map((c) => c.path)
      const result = await options.push(eventPrinter(reporter), saved)
      if (result.status === 'ok') echoed.remember(signed)
      reporter.endProgress()
      // A file the push wrote counts as saved: a move may be pushed before the watcher reports the new path.
      const shown = initial ? worthShowing : ofSaved(new Set([...files, ...result.done.map((op) => op.path)]))
      reporter.diagnostics(result.plan.diagnostics.filter(shown))
      const tooMany = result.plan.blocked
        ? undefined
        : warningLimitExceeded(result.plan.diagnostics, result.plan.warningLimit)
      if (tooMany) reporter.error(`${tooMany}; not pushed`)
      const line = resultLine(result, pushedNames(result))
      options.onBatch?.({batch, status: result.status, result})
      reporter.status(`${stamp()} ${line}`)
      if (result.status === 'failed') return 'retry'
      return result.status === 'ok' ? 'ok' : 'wait'
    } catch (error) {
      reporter.endProgress()
      const message = error instanceof Error ? error.message : String(error)
      if (error instanceof StoppedError) return stoppedPush(reporter, message)
      reporter.error(`push failed: ${message}; retrying after a backoff or on the next change`)
      options.onBatch?.({batch, status: 'error', error: message})
      reporter.status(`${stamp()} push failed; watching`)
      return 'retry'
    }
  }

  const batcher = createBatcher({
    debounceMs: options.debounceMs,
    run,
    ...(options.backoffMs ? {backoffMs: options.backoffMs} : {})
  })
  const watcher = await watchTree(dir, {
    filter,
    onEvent: (kind: ChangeKind, path) => batcher.add({kind, path}),
    onWarning: (message) => reporter.warn(message)
  })
  if (options.initialPush !== false) batcher.add({kind: 'sync', path: ''})

  return {
    idle: () => batcher.idle(),
    async close() {
      await watcher.close()
      await batcher.close()
      reporter.endProgress()
    }
  }
}

function stamp(): string {
  return `[${new Date().toTimeString().slice(0, 8)}]`
}

/** A push Ctrl-C cut short: what it wrote is recorded; watch is closing, so nothing is retried. */
function stoppedPush(reporter: Reporter, message: string): 'wait' {
  reporter.info(`push ${message}`)
  return 'wait'
}

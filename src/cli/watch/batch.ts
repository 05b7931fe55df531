/**
 * The pure part of watch mode: file events coalesced into batches. A burst
 * (a `git checkout`, a save-all) becomes one batch once the folder has been
 * quiet for `debounceMs`; a stream that never pauses is still flushed every
 * `maxWaitMs`; while a push runs, new events wait for the next batch, so
 * pushes never overlap. Timers are injected so tests run on a fake clock.
 */

/** What chokidar reports, and `sync`: push everything (the first run). */
export type ChangeKind = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir' | 'sync'

/** One file-system event, path relative to the watched folder with `/`. */
export interface ChangeEvent {
  kind: ChangeKind
  path: string
  /** Found on disk under a new folder, not reported by the watcher (see unreported.ts). */
  unreported?: true
}

/** A coalesced batch: each path once, with its last event. */
export interface Batch {
  /** Events received (before coalescing). */
  events: number
  /** Each path once, in order of first appearance, with its last kind. */
  changes: ChangeEvent[]
}

/** Coalesces events: one entry per path, the last kind winning (add then unlink of a temp file is an unlink). */
export function coalesce(events: readonly ChangeEvent[]): Batch {
  const byPath = new Map<string, ChangeEvent>()
  for (const event of events) {
    byPath.delete(event.path) // re-inserted below: order of the latest event
    byPath.set(event.path, event)
  }
  return {events: events.length, changes: [...byPath.values()]}
}

/** A short human description: `3 changed: a.md, b.md, +1 more`. */
export function describeBatch(batch: Batch, shown = 3): string {
  // The start's own sync is no change of a file.
  const paths = batch.changes.filter((c) => c.kind !== 'sync').map((c) => c.path || '.')
  const more = paths.length > shown ? `, +${paths.length - shown} more` : ''
  return `${paths.length} changed: ${paths.slice(0, shown).join(', ')}${more}`
}

/** The outcome of running a batch: `retry` asks for the same changes again after a backoff. */
export type RunOutcome = 'ok' | 'retry' | 'wait'

/** Timer functions (the real ones by default). */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
  now(): number
}

/** Options of `createBatcher`. */
export interface BatcherOptions {
  /** Quiet time before a batch runs (default 300). */
  debounceMs?: number
  /** Longest time an event waits while events keep coming (default 10 × debounce, at least 2 s). */
  maxWaitMs?: number
  /** Runs one batch; never called concurrently. A thrown error counts as `retry`. */
  run(batch: Batch): Promise<RunOutcome>
  /** Backoff before the `attempt`-th retry (1-based); default 1 s doubling up to 30 s. */
  backoffMs?(attempt: number): number
  timers?: Timers
}

/** The batcher. */
export interface Batcher {
  /** Records an event; schedules a run. */
  add(event: ChangeEvent): void
  /** Resolves when nothing is pending or running. */
  idle(): Promise<void>
  /** Stops scheduling; waits for a running batch to finish. Pending events are dropped (the next start pushes them). */
  close(): Promise<void>
  /** Events waiting for the next batch. */
  readonly pending: number
  readonly running: boolean
}

const realTimers: Timers = {
  setTimeout: (cb, ms) => setTimeout(cb, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  now: () => Date.now()
}

/** Default backoff: 1 s, 2 s, 4 s … capped at 30 s. */
export function defaultBackoff(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1))
}

/** Resolvers of `idle()` calls, released together once nothing is pending or running (`busy` false). */
function idleWaiters(busy: () => boolean): {wait(): Promise<void>; release(): void} {
  let waiters: Array<() => void> = []
  const release = () => {
    if (busy()) return
    const list = waiters
    waiters = []
    for (const resolve of list) resolve()
  }
  return {
    wait: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve)
        release()
      }),
    release
  }
}

/** Runs `batch` through `run`; a thrown error counts as `retry`. */
async function outcomeOf(run: BatcherOptions['run'], batch: Batch): Promise<RunOutcome> {
  try {
    return await run(batch)
  } catch {
    return 'retry'
  }
}

/** Creates a batcher. */
export function createBatcher(options: BatcherOptions): Batcher {
  const debounceMs = options.debounceMs ?? 300
  const maxWaitMs = options.maxWaitMs ?? Math.max(2000, debounceMs * 10)
  const timers = options.timers ?? realTimers
  const backoff = options.backoffMs ?? defaultBackoff
  let queue: ChangeEvent[] = []
  let firstAt: number | undefined
  let timer: unknown
  let running: Promise<void> | undefined
  let closed = false
  let attempt = 0
  const idle = idleWaiters(() => running !== undefined || timer !== undefined || queue.length > 0)
  const settle = () => idle.release()

  const schedule = (ms: number) => {
    if (timer !== undefined) timers.clearTimeout(timer)
    timer = timers.setTimeout(fire, Math.max(0, ms))
  }
  // After a run: a retry puts the failed changes back in front (events that came meanwhile stay) after a backoff.
  const afterRun = (batch: Batch, outcome: RunOutcome) => {
    if (outcome === 'retry') {
      attempt++
      queue = [...batch.changes, ...queue]
      firstAt = timers.now()
      schedule(backoff(attempt))
      return
    }
    attempt = 0
    if (queue.length > 0) {
      firstAt = timers.now()
      schedule(debounceMs)
    }
  }
  function fire() {
    timer = undefined
    if (closed || running || queue.length === 0) return settle()
    const batch = coalesce(queue)
    queue = []
    firstAt = undefined
    running = (async () => {
      const outcome = await outcomeOf(options.run, batch)
      running = undefined
      if (!closed) afterRun(batch, outcome)
      settle()
    })()
  }

  return {
    add(event) {
      if (closed) return
      queue.push(event)
      if (running) return // scheduled when the run ends
      const now = timers.now()
      firstAt ??= now
      // A new change after a failure is worth trying at once: the user may have fixed it.
      if (attempt > 0 && event.kind !== 'sync') attempt = 0
      schedule(Math.min(debounceMs, firstAt + maxWaitMs - now))
    },
    idle: () => idle.wait(),
    async close() {
      closed = true
      if (timer !== undefined) timers.clearTimeout(timer)
      timer = undefined
      queue = []
      await running
      settle()
    },
    get pending() {
      return queue.length
    },
    get running() {
      return running !== undefined
    }
  }
}

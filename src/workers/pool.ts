/**
 * A pool of conversion workers. Tasks queue in the main thread and go to
 * the first idle worker, one at a time per worker (the work is CPU-bound).
 * Workers start on the first task, not before; an idle pool keeps no
 * process alive (its workers are unref'd while they wait). A task that
 * throws fails alone; a worker that dies (a crash, an exit, running out of
 * memory) fails only the task it held, and a fresh worker takes the next.
 */
import {existsSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {Worker} from 'node:worker_threads'
import {isTaskAnswer, type TaskRequest} from './protocol.js'
import {runTask, setShared} from './tasks.js'

/** Runs tasks by name on plain data. */
export interface TaskRunner {
  /** How many workers run tasks (0: the calling thread runs them). */
  readonly size: number
  /** Runs the task `task` on `input`; rejects with what it threw, or when its worker died or the pool closed. */
  run(task: string, input: unknown): Promise<unknown>
  /** Gives every worker (and any started later) `value` under `key` for its tasks; undefined forgets it. */
  share(key: string, value: unknown): void
  /** Terminates the workers: tasks queued or running are rejected; the pool runs no task after. */
  close(): Promise<void>
}

/** What a pool is made with. */
export interface PoolOptions {
  /** Number of workers (0: in-process). */
  size: number
  /** The worker's entry (tests give their own); default the built `worker.js` beside this module. */
  entry?: URL
  /** Each worker's heap caps (default `workerHeap`). */
  heap?: WorkerHeap
  /** Runs a task in this thread: a task whose worker ran out of memory runs so, and those this thread helps with (default `runTask`). */
  inThread?: (task: string, input: unknown) => Promise<unknown>
  /**
   * Whether this thread also runs queued tasks, one at a time between its own events, while every worker is busy
   * (default true): its idle time converts too, so a pool of one worker uses both cores of a two-core machine.
   */
  help?: boolean
}

/** The heap of one worker, in MB (`resourceLimits` of `worker_threads`). */
export interface WorkerHeap {
  maxOldGenerationSizeMb: number
  maxYoungGenerationSizeMb: number
}

/**
 * A worker converts one body at a time: its heap holds that body's trees and
 * the tables a pull shares (a file name per document: ~5 MB at 30,000). Left
 * uncapped, V8 lets garbage pile up to a share of the machine's memory in
 * every worker; capped, a worker collects early, and a body too big for it
 * runs in the main thread instead (`inThread`). The young generation is
 * sized for one conversion's garbage (a few MB of tokens and trees), so it
 * dies young: with 8 MB it was promoted, and under the CLI's bounded heap
 * growth (`cli/heap.ts`, a process-wide flag, so the workers' too) the
 * worker spent 30% of its time collecting (600 articles: 8.0 s of 26.5 s;
 * with 32 MB 2.2 s, the pull 22.6 s instead of 36.7 s, peak 296 MB
 * instead of 275 MB).
 */
export const workerHeap: WorkerHeap = {maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 32}

interface Job {
  request: TaskRequest
  resolve(value: unknown): void
  reject(error: Error): void
}

interface Slot {
  worker: Worker
  job?: Job
}

/** The built worker entry: beside this module once compiled; from the TypeScript source, the build's copy, if there is one. */
export function builtEntry(): URL | undefined {
  const here = new URL(import.meta.url)
  if (here.pathname.endsWith('.js')) return new URL('./worker.js', here)
  // Under a test runner the source is TypeScript, which a worker cannot load: the compiled twin in `dist/` (or KBSYNC_DIST).
  const root = fileURLToPath(new URL('../../', here))
  const built = path.resolve(root, process.env.KBSYNC_DIST ?? 'dist', 'src/workers/worker.js')
  return existsSync(built) ? pathToFileURL(built) : undefined
}

/** A pool of `options.size` workers, or one that runs each task in this thread (size 0, or no built entry to start). */
export function createTaskRunner(options: PoolOptions): TaskRunner {
  const entry = options.entry ?? builtEntry()
  if (options.size === 0 || entry === undefined) return inProcess()
  return workerPool(options.size, entry, options.heap ?? workerHeap, options.inThread ?? runTask, options.help ?? true)
}

/** Tasks run in the calling thread, one after the other as they are called. */
function inProcess(): TaskRunner {
  let closed = false
  return {
    size: 0,
    run: async (task, input) => {
      if (closed) throw new PoolClosedError()
      return runTask(task, input)
    },
    share: setShared,
    close: async () => {
      closed = true
    }
  }
}

/** The pool was closed (a run stopping): the task did not run. */
export class PoolClosedError extends Error {
  constructor() {
    super('the conversion was stopped (the run is ending)')
    this.name = 'PoolClosedError'
  }
}

/** Whether a worker died because its heap reached its cap (the task may run in the main thread). */
function outOfMemory(error: unknown): boolean {
  return (error as {code?: unknown} | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY'
}

function workerPool(
  size: number,
  entry: URL,
  heap: WorkerHeap,
  inThread: (task: string, input: unknown) => Promise<unknown>,
  help: boolean
): TaskRunner {
  const slots: Slot[] = []
  const queue: Job[] = []
  const shared = new Map<string, unknown>()
  let next = 0
  let closed = false
  const isClosed = (): boolean => closed
  const helper = help ? threadHelper(queue, inThread, isClosed, () => dispatch()) : undefined
  const start = (): Slot => {
    const slot: Slot = {worker: new Worker(entry, {resourceLimits: {...heap}})}
    // Posted before any task: a worker reads its messages in order.
    for (const [key, value] of shared) slot.worker.postMessage({share: key, value})
    slot.worker.on('message', (answer: unknown) => {
      const job = slot.job
      if (!isTaskAnswer(answer) || job === undefined || answer.id !== job.request.id) return
      slot.job = undefined
      if ('error' in answer) job.reject(new Error(answer.error))
      else job.resolve(answer.output)
      dispatch()
    })
    const died = (why: string, tooBig = false) => {
      const index = slots.indexOf(slot)
      if (index === -1) return
      slots.splice(index, 1)
      const job = slot.job
      slot.job = undefined
      // A body too big for a worker's heap is no failure: the main thread, uncapped, converts it.
      if (job && !closed && tooBig) inThread(job.request.task, job.request.input).then(job.resolve, job.reject)
      else if (job && !closed) job.reject(new WorkerDiedError(why))
      dispatch()
    }
    slot.worker.on('error', (error) => died(error.message, outOfMemory(error)))
    slot.worker.on('exit', (code) => died(`it exited with code ${code}`))
    slot.worker.unref()
    slots.push(slot)
    return slot
  }
  const dispatch = () => {
    while (!closed && queue.length > 0) {
      const slot = slots.find((candidate) => candidate.job === undefined) ?? (slots.length < size ? start() : undefined)
      if (slot === undefined) break
      const job = queue.shift()!
      slot.job = job
      slot.worker.postMessage(job.request)
    }
    helper?.offer()
    keepAliveWhileBusy(slots)
  }
  return {
    size,
    run(task, input) {
      if (closed) return Promise.reject(new PoolClosedError())
      return new Promise((resolve, reject) => {
        queue.push({request: {id: next++, task, input}, resolve, reject})
        dispatch()
      })
    },
    share(key, value) {
      if (value === undefined) shared.delete(key)
      else shared.set(key, value)
      // This thread's tasks read it too: those it helps with, and those too big for a worker.
      setShared(key, value)
      for (const slot of slots) slot.worker.postMessage({share: key, value})
    },
    async close() {
      closed = true
      const pending = [...queue.splice(0), ...slots.flatMap((slot) => (slot.job ? [slot.job] : []))]
      for (const job of pending) job.reject(new PoolClosedError())
      await Promise.all(slots.splice(0).map((slot) => slot.worker.terminate()))
    }
  }
}

/** Waiting workers keep no process alive; a worker with a task does (its answer is awaited). */
function keepAliveWhileBusy(slots: readonly Slot[]): void {
  for (const slot of slots)
    if (slot.job === undefined) slot.worker.unref()
    else slot.worker.ref()
}

/**
 * This thread's help with the queue of a pool whose workers are all busy:
 * `offer` has it take the first queued task once its own pending events
 * have run (`setImmediate`), one at a time; `after` runs once each settles.
 */
function threadHelper(
  queue: Job[],
  inThread: (task: string, input: unknown) => Promise<unknown>,
  closed: () => boolean,
  after: () => void
): {offer(): void} {
  let helping = false
  const take = () => {
    const job = queue.shift()
    if (closed() || job === undefined) {
      helping = false
      return
    }
    const settle = (done: () => void) => {
      helping = false
      if (closed()) job.reject(new PoolClosedError())
      else done()
      after()
    }
    inThread(job.request.task, job.request.input).then(
      (value) => settle(() => job.resolve(value)),
      (error: unknown) => settle(() => job.reject(error instanceof Error ? error : new Error(String(error))))
    )
  }
  return {
    offer() {
      if (helping || closed() || queue.length === 0) return
      helping = true
      setImmediate(take)
    }
  }
}

/** The worker converting a task died: that task fails; the pool starts a fresh worker for the next. */
export class WorkerDiedError extends Error {
  constructor(why: string) {
    super(`the conversion worker stopped while converting this document (${why}); the other documents go on`)
    this.name = 'WorkerDiedError'
  }
}

/**
 * The conversion pool: CPU-bound conversions (a remote body to its file's
 * text and proof, a file's source to the dialect) run on worker threads,
 * one per core beside the main thread, none on a machine of two cores or
 * fewer (`KBSYNC_WORKERS` sets the number; 0 converts in the main thread). One pool per process, started on the first
 * task; `closeConversionPool` terminates it (a run that stops).
 */
import {createTaskRunner, type TaskRunner} from './pool.js'
import {poolSize, workersVariable} from './size.js'

export {
  createTaskRunner,
  PoolClosedError,
  WorkerDiedError,
  type PoolOptions,
  type TaskRunner,
  type WorkerHeap,
  workerHeap
} from './pool.js'
export {poolSize, workersVariable} from './size.js'
export {sharedValue} from './tasks.js'

let pool: TaskRunner | undefined

/** The process's conversion pool, made on first call with `KBSYNC_WORKERS` workers (default: cores - 1; none on two cores or fewer). */
export function conversionPool(): TaskRunner {
  pool ??= createTaskRunner({size: poolSize(process.env[workersVariable])})
  return pool
}

/** Terminates the process's conversion pool (tasks in flight fail with `PoolClosedError`); the next task starts a new one. */
export async function closeConversionPool(): Promise<void> {
  const closing = pool
  pool = undefined
  await closing?.close()
}

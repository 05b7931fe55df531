/**
 * How many conversion workers a process starts: as many as the machine has
 * cores beside the main thread, unless the caller or `KBSYNC_WORKERS` says
 * otherwise; 0 converts in the main thread. A machine of one or two cores
 * starts none: the main thread's own work (requests, writes, the server or
 * editor beside it) already fills the second core, so a worker won no wall
 * time there (pull of 1,000 articles on 2 cores: the same time either way)
 * and cost its own heap and copies of every body (peak RSS 475 MB with one
 * worker, 315 MB without).
 */
import {availableParallelism} from 'node:os'

/** The environment variable that sets the number of conversion workers (0: none, convert in-process). */
export const workersVariable = 'KBSYNC_WORKERS'

/**
 * The number of workers for `setting` (a count, or the text of
 * `KBSYNC_WORKERS`); an absent or unreadable setting gives the machine's
 * default. Throws for a setting that is not a whole number from 0 to 64.
 */
export function poolSize(setting: number | string | undefined, cores = availableParallelism()): number {
  if (setting === undefined || setting === '') return cores <= 2 ? 0 : cores - 1
  const count = typeof setting === 'number' ? setting : Number(setting.trim())
  if (!Number.isInteger(count) || count < 0 || count > 64)
    throw new Error(
      `${workersVariable} must be a whole number from 0 to 64 (0: convert in the main thread), not "${String(setting)}"`
    )
  return count
}

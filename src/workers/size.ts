/**
 * How many conversion workers a process starts: as many as the machine has
 * cores beside the main thread, unless the caller or `KBSYNC_WORKERS` says
 * otherwise; 0 converts in the main thread. A machine of one or two cores
 * starts none: measured again once the main thread helped its worker
 * (`pool.ts`) and the check's renders ran on the pool, side by side on a
 * shared two-core machine, one worker cost more than it won: a pull of 600
 * articles took 14.3 s of CPU, 48.6 s and 198 MB peak without, 21.3 s of
 * CPU, 91.7 s and 276 MB with one (the worker loads its own modules, every
 * body and answer is copied to it, its heap is its own). Before those
 * changes `--only=pull` won 13% of wall time for 44% more CPU on a quieter
 * machine. On an idle two-core machine (load under 2, 27 November 2026) one
 * worker won `--only=pull` (1,040 items: 8.7 s against 10.7 s, for 36% more
 * CPU) but lost the pull of 9,000 articles: 119.7 s, 174.0 s of CPU and
 * 343 MB peak with it; 97.8 s, 114.7 s and 335 MB without.
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

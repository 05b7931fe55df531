/**
 * The CLI's heap policy. A push or pull parses and renders every document
 * once: much short-lived garbage over a small live set (about 50 MB after
 * planning 3,000 articles). V8's default growth lets the heap grow up to
 * four times the live set between full collections, so the peak resident
 * memory followed the garbage rate, not the work in flight (a 1,500-article
 * push peaked at 324-339 MB; with the heap grown by 30% per collection, at
 * 184 MB in the same time). `--heap-growing-percent` is read at each
 * collection, so it applies when set at start-up, workers included.
 */
import {setFlagsFromString} from 'node:v8'

/** How much the heap may grow past the live set after a full collection, in percent. */
export const heapGrowthPercent = 30

const heapFlags = /--(?:heap-growing-percent|max-old-space-size|max-semi-space-size)\b/

/**
 * Bounds the heap's growth for this process, unless the user tuned the heap
 * (a heap flag on the command line or in `NODE_OPTIONS`).
 * Returns whether it set the policy.
 */
export function boundHeapGrowth(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  if (execArgv.some((arg) => heapFlags.test(arg)) || heapFlags.test(nodeOptions ?? '')) return false
  setFlagsFromString(`--heap-growing-percent=${heapGrowthPercent}`)
  return true
}

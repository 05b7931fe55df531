/**
 * The CLI's heap policy. A push or pull parses and renders every document
 * once: much short-lived garbage over a small live set (about 50 MB after
 * planning 3,000 articles). V8's default growth lets the heap grow up to
 * four times the live set between full collections, so the peak resident
 * memory followed the garbage rate, not the work in flight: a 1,500-article
 * push peaked at 324-339 MB, and at 197 MB with the heap grown by 30% per
 * collection (184 MB at 15%, 209 MB at 50%) in no more time. V8 reads
 * `--heap-growing-percent` at each collection, so setting it at start-up
 * applies, to workers too.
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

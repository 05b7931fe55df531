/**
 * The CLI's heap policy. A push or pull parses and renders every document
 * once: much short-lived garbage over a small live set (about 50 MB after
 * planning 3,000 articles). V8's default growth lets the heap grow up to
 * four times the live set between full collections, so the peak resident
 * memory followed the garbage rate, not the work in flight: a 1,500-article
 * push peaked at 324-339 MB, and at 197 MB with the heap grown by 30% per
 * collection (184 MB at 15%, 209 MB at 50%) in no more time. A small run
 * pays for the bound and gains nothing: biome-docs (307 pages, many large)
 * made 32 full collections instead of 5 and took about 2 s longer. So the
 * heap grows as V8 likes up to `freeHeapBytes`, and is bounded past it. The
 * bound applies from the next full collection, after V8 set the heap's next
 * size its own way: a 3,000-article push peaked at 348 MB with 192 MB free,
 * 207 MB with 96 MB free, 199 MB bounded from the start. V8 reads
 * `--heap-growing-percent` at each collection, so setting it mid-run
 * applies from the next one, to workers too.
 */
import {getHeapStatistics, setFlagsFromString} from 'node:v8'

/** How much the heap may grow past the live set after a full collection, in percent, once it is large. */
export const heapGrowthPercent = 30

/** The heap a run may take before its growth is bounded, in bytes. */
export const freeHeapBytes = 96 * 1024 * 1024

const heapFlags = /--(?:heap-growing-percent|max-old-space-size|max-semi-space-size)\b/

/** What `boundHeapGrowth` reads and does (tests give their own). */
export interface HeapWatch {
  /** The heap's size now, in bytes (default V8's `total_heap_size`). */
  heapSize?: () => number
  /** Bounds the growth (default: sets `--heap-growing-percent`). */
  bound?: () => void
  /** How often the heap's size is read, in ms. */
  every?: number
}

/**
 * Bounds the heap's growth for this process once the heap passes
 * `freeHeapBytes`, unless the user tuned the heap (a heap flag on the
 * command line or in `NODE_OPTIONS`). Returns whether it watches; the watch
 * keeps no process alive.
 */
export function boundHeapGrowth(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
  watch: HeapWatch = {}
): boolean {
  if (execArgv.some((arg) => heapFlags.test(arg)) || heapFlags.test(nodeOptions ?? '')) return false
  const heapSize = watch.heapSize ?? (() => getHeapStatistics().total_heap_size)
  const bound = watch.bound ?? (() => setFlagsFromString(`--heap-growing-percent=${heapGrowthPercent}`))
  const timer = setInterval(() => {
    if (heapSize() < freeHeapBytes) return
    clearInterval(timer)
    bound()
  }, watch.every ?? 100)
  timer.unref()
  return true
}

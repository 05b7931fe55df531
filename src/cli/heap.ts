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
 * heap grows as V8 likes up to `freeHeapBytes`, and is bounded past it. V8
 * reads `--heap-growing-percent` at each full collection, so setting it
 * mid-run applies from the next one (to workers too), and until then the
 * heap may grow to the size the last collection set its own way, up to
 * four times what was alive: a 1,000-article push of 300 links each grew
 * its heap to 295 MB before that next collection (live: 60 MB, then at
 * most 90 MB), and the same 12,000-article push peaked at 343 MB in one
 * run, 516 MB in another. So the bound is followed by one full collection,
 * once per run, which sets the heap's next size by the bound at once. A
 * parse of a very long table or list runs in one synchronous call, during
 * which no timer fires: it is announced (`onLongParse`), and the bound and
 * its collection come before it.
 *
 * A bound of 30% of a small live set leaves too little room: biome-docs
 * (300 bodies, many large: live 50-90 MB) collected its whole heap about
 * 30 times. So a push of fewer than `smallPushBodies` bodies (its scan
 * says how many, before it reads them: `onPushSize`) lets the heap grow
 * `smallPushSlackBytes` past the live set, measured after each full
 * collection for the next; a larger push, and a pull (whose scan says
 * nothing of what it will download), keep the 30% bound (the same slack
 * for every run raised the peak of a 9,000-article push from 330 to 398 MB).
 */
import {constants, PerformanceObserver} from 'node:perf_hooks'
import {getHeapStatistics, setFlagsFromString} from 'node:v8'
import {runInNewContext} from 'node:vm'
import {onLongParse} from '../dialect/slices/long-parse.js'
import {onPushSize} from '../sync/push/push-size.js'

/** How much the heap may grow past the live set after a full collection, in percent, once it is large. */
export const heapGrowthPercent = 30

/** The heap a run may take before its growth is bounded, in bytes. */
export const freeHeapBytes = 96 * 1024 * 1024

/** Bodies a push reads, fewer than which it is small: its heap may grow `smallPushSlackBytes` past the live set. */
export const smallPushBodies = 1000

/** How much the heap of a small push may grow past the live set after a full collection, at least, in bytes. */
export const smallPushSlackBytes = 64 * 1024 * 1024

/** V8's own largest growth past the live set, in percent: more is never asked for. */
const maxGrowthPercent = 300

/** The growth past a live set of `liveBytes` (`small`: of a small push) a full collection sets, in percent. */
export function growthPercentFor(liveBytes: number, small: boolean): number {
  if (!small) return heapGrowthPercent
  const percent = Math.ceil((smallPushSlackBytes / Math.max(liveBytes, 1)) * 100)
  return Math.min(maxGrowthPercent, Math.max(heapGrowthPercent, percent))
}

const heapFlags = /--(?:heap-growing-percent|max-old-space-size|max-semi-space-size)\b/

/** What `boundHeapGrowth` reads and does (tests give their own). */
export interface HeapWatch {
  /** The heap's size now, in bytes (default V8's `total_heap_size`). */
  heapSize?: () => number
  /** The bytes the heap holds now (default V8's `used_heap_size`): the live set right after a full collection. */
  usedSize?: () => number
  /** Bounds the growth to `percent` past the live set (default: sets `--heap-growing-percent`). */
  bound?: (percent: number) => void
  /** Collects the whole heap, right after the bound (default: V8's full collection). */
  collect?: () => void
  /** How often the heap's size is read, in ms. */
  every?: number
  /** Has its argument called before a long synchronous parse (default: `onLongParse`). */
  onLongWork?: (heard: (() => void) | undefined) => void
  /** Has its argument called with the bodies a push reads (default: `onPushSize`). */
  onRunSize?: (heard: ((bodies: number) => void) | undefined) => void
  /** Calls `listener` after each full collection from now on (default: V8's major collections, observed). */
  afterCollections?: (listener: () => void) => void
}

/** Calls `listener` after each major collection of this process's heap. */
function afterMajorCollections(listener: () => void): void {
  new PerformanceObserver((entries) => {
    const details = entries.getEntries().map((entry) => (entry as {detail?: {kind?: number}}).detail)
    if (details.some((detail) => detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) listener()
  }).observe({entryTypes: ['gc']})
}

/** One full collection of this process's heap (V8's `gc`, exposed for the call). */
function collectHeap(): void {
  setFlagsFromString('--expose-gc')
  ;(runInNewContext('gc') as () => void)()
}

/**
 * Bounds the heap's growth for this process once the heap passes
 * `freeHeapBytes`, and collects the heap once so that the bound applies at
 * once, unless the user tuned the heap (a heap flag on the command line or
 * in `NODE_OPTIONS`). Returns whether it watches; the watch keeps no
 * process alive.
 */
export function boundHeapGrowth(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
  watch: HeapWatch = {}
): boolean {
  if (execArgv.some((arg) => heapFlags.test(arg)) || heapFlags.test(nodeOptions ?? '')) return false
  const heapSize = watch.heapSize ?? (() => getHeapStatistics().total_heap_size)
  const usedSize = watch.usedSize ?? (() => getHeapStatistics().used_heap_size)
  const bound = watch.bound ?? ((percent) => setFlagsFromString(`--heap-growing-percent=${percent}`))
  const collect = watch.collect ?? collectHeap
  const onLongWork = watch.onLongWork ?? onLongParse
  let bodies: number | undefined
  let bounded = false
  const small = () => bodies !== undefined && bodies < smallPushBodies
  // A collection sets the heap's next size by the growth set before it: a small push's, by the last live set.
  const rebound = () => bound(growthPercentFor(usedSize(), small()))
  let observing = false
  const observe = () => {
    if (observing || !bounded || !small()) return
    observing = true
    ;(watch.afterCollections ?? afterMajorCollections)(() => {
      if (small()) rebound()
    })
  }
  ;(watch.onRunSize ?? onPushSize)((count) => {
    bodies = Math.max(bodies ?? 0, count)
    if (!bounded) return
    rebound()
    observe()
  })
  const boundNow = () => {
    clearInterval(timer)
    onLongWork(undefined)
    bounded = true
    rebound()
    collect()
    if (small()) rebound()
    observe()
  }
  const timer = setInterval(() => {
    if (heapSize() >= freeHeapBytes) boundNow()
  }, watch.every ?? 100)
  timer.unref()
  onLongWork(boundNow)
  return true
}

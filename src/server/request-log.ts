/**
 * The server's request log: the most recent requests in full, and exact
 * counts of every request since the last reset. A long run (a push of
 * 30,000 articles is some 60,000 requests) keeps at most `limit` entries:
 * older ones leave only their counts behind.
 */
import type {RequestLogEntry} from './options.js'

/** The request log of one server. */
export interface RequestLog {
  /** Adds a request; its entry may still be filled in (status, endpoint) while it is answered. */
  record(entry: RequestLogEntry): void
  /** The retained entries, oldest first (at most the limit: the most recent ones). */
  entries(): RequestLogEntry[]
  /** Requests by endpoint, and `writes`, since the last reset (all of them, also those no longer retained). */
  counts(): Record<string, number>
  /** How many requests arrived since the last reset. */
  total(): number
  reset(): void
}

/** Entries kept by default: enough for any test, a few megabytes at most. */
export const defaultRequestLogLimit = 50_000

/** A log retaining the last `limit` entries. */
export function createRequestLog(limit = defaultRequestLogLimit): RequestLog {
  let kept: RequestLogEntry[] = []
  // Entries before `head` are gone: counted in `evicted`, dropped from the array in batches, never shifted one by one.
  let head = 0
  let evicted: Record<string, number> = {writes: 0}
  let evictedTotal = 0
  const count = (counts: Record<string, number>, entry: RequestLogEntry) => {
    counts[entry.endpoint] = (counts[entry.endpoint] ?? 0) + 1
    if (entry.write) counts.writes! += 1
  }
  return {
    record(entry) {
      kept.push(entry)
      // Long evicted, its endpoint and write flag are final (both are set before the request first waits).
      while (kept.length - head > limit) {
        count(evicted, kept[head]!)
        head += 1
        evictedTotal += 1
      }
      if (head >= Math.max(1024, limit)) {
        kept = kept.slice(head)
        head = 0
      }
    },
    entries: () => kept.slice(head),
    counts() {
      const counts = {...evicted}
      for (let i = head; i < kept.length; i++) count(counts, kept[i]!)
      return counts
    },
    total: () => evictedTotal + kept.length - head,
    reset() {
      kept = []
      head = 0
      evicted = {writes: 0}
      evictedTotal = 0
    }
  }
}

/**
 * The platform's dropped connections: a quick series of requests gets some
 * of them cut without an answer (`fetch failed` in the client), in bursts.
 * Modelled as a sliding one-second window over every request that arrives,
 * dropped ones included (the platform sees those too): while more than
 * `limit` arrived within the last second, each new one is dropped. A client
 * that keeps its pace keeps losing requests; one that slows down gets
 * through again, which is what adaptive concurrency must learn.
 */

/** Decides, per arriving request, whether its connection is dropped. */
export interface BurstDropper {
  /** Counts one arriving request; true when its connection is to be dropped. */
  arrive(): boolean
  /** Changes the limit (0 or undefined: never drop) and forgets the window. */
  set(limit: number | undefined): void
  /** The current limit, 0 when off. */
  limit(): number
}

const windowMs = 1000

/** A sliding-window dropper: more than `limit` arrivals within a second drops the excess (0 or undefined: off). */
export function createBurstDropper(initial: number | undefined, now: () => number = Date.now): BurstDropper {
  let limit = initial ?? 0
  // Arrival times within the last second, oldest first; `head` skips expired ones without shifting the array.
  let arrivals: number[] = []
  let head = 0
  return {
    arrive() {
      if (limit <= 0) return false
      const time = now()
      while (head < arrivals.length && time - arrivals[head]! >= windowMs) head += 1
      if (head > 1024 && head * 2 > arrivals.length) {
        arrivals = arrivals.slice(head)
        head = 0
      }
      arrivals.push(time)
      return arrivals.length - head > limit
    },
    set(next) {
      limit = next ?? 0
      arrivals = []
      head = 0
    },
    limit: () => limit
  }
}

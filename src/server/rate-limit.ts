/**
 * The platform's rate limit: a fixed window of `limit` requests per
 * `windowSeconds` per user, announced in `X-RateLimit-*` headers on every
 * answer.
 */
export interface RateLimitOptions {
  limit: number
  windowSeconds: number
}

/** Headers and verdict for one request. */
export interface RateDecision {
  allowed: boolean
  headers: Record<string, string>
}

/** A fixed-window limiter keyed by user. */
export function createRateLimiter(initial: RateLimitOptions, now: () => number = Date.now) {
  let options = initial
  const windows = new Map<string, {start: number; count: number}>()
  return {
    set(next: RateLimitOptions): void {
      options = next
      windows.clear()
    },
    /** Counts one request of `key`. */
    take(key: string): RateDecision {
      return decide(key, 1)
    },
    /** The headers of `key`'s window, without counting a request (answers that spend no budget: a refused token, a login). */
    peek(key: string): RateDecision {
      return decide(key, 0)
    }
  }

  function decide(key: string, cost: number): RateDecision {
    const time = now()
    const length = options.windowSeconds * 1000
    let window = windows.get(key)
    if (!window || time - window.start >= length) {
      window = {start: time, count: 0}
      windows.set(key, window)
    }
    window.count += cost
    const allowed = window.count <= options.limit
    const reset = Math.max(1, Math.ceil((window.start + length - time) / 1000))
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(options.limit),
      'X-RateLimit-Remaining': String(Math.max(0, options.limit - window.count)),
      'X-RateLimit-Reset': String(reset)
    }
    if (!allowed) headers['Retry-After'] = String(reset)
    return {allowed, headers}
  }
}

/**
 * Two shared gates every request of a client passes: a concurrency limit (a
 * counting semaphore, sized by the congestion window) and a rate limiter that reads the platform's
 * `X-RateLimit-*` headers and, when the remaining budget runs low, spaces
 * requests so that it lasts until the interval resets.
 */

/**
 * A counting semaphore: at most `size()` holders at once, served in arrival
 * order. The size may change (adaptive concurrency): a smaller one takes
 * effect as holders release, a larger one at the next `drain()`.
 */
export class Semaphore {
  private active = 0
  private readonly waiting: Array<() => void> = []
  private readonly size: () => number

  constructor(size: number | (() => number)) {
    this.size = typeof size === 'number' ? () => size : size
  }

  /** Resolves when a slot is free; call the returned function to release it. */
  async acquire(): Promise<() => void> {
    if (this.active < this.size() && this.waiting.length === 0) this.active++
    else await new Promise<void>((resolve) => this.waiting.push(resolve))
    let released = false
    return () => {
      if (released) return
      released = true
      this.active--
      this.drain()
    }
  }

  /** Lets waiting callers in while there is room (call after the size grew). */
  drain(): void {
    while (this.waiting.length > 0 && this.active < this.size()) {
      this.active++
      this.waiting.shift()!()
    }
  }
}

/** What the rate limiter knows from the last answer. */
interface Budget {
  limit?: number
  remaining: number
  resetAt: number
}

/**
 * Spaces requests when `X-RateLimit-Remaining` runs low. Below the low-water
 * mark (a twentieth of the limit, at least twice the concurrency) each request
 * waits for its slot: slots are `time left / remaining budget` apart. With no
 * budget left it waits for the reset. Knowledge expires at the reset.
 */
export class RateLimiter {
  private budget: Budget | undefined
  private nextSlot = 0

  constructor(
    private readonly concurrency: number,
    private readonly now: () => number = Date.now
  ) {}

  /** Records the headers of an answer. */
  observe(headers: Record<string, string | undefined>): void {
    const remaining = Number(headers['x-ratelimit-remaining'])
    const reset = Number(headers['x-ratelimit-reset'])
    if (!Number.isFinite(remaining) || !Number.isFinite(reset) || headers['x-ratelimit-remaining'] === undefined) return
    const limit = Number(headers['x-ratelimit-limit'])
    const resetAt = this.now() + reset * 1000
    // Answers arrive out of order: within one interval the smallest remaining count is the newest truth.
    if (this.budget && Math.abs(this.budget.resetAt - resetAt) < 1500 && this.budget.remaining < remaining) return
    this.budget = {limit: Number.isFinite(limit) ? limit : undefined, remaining, resetAt}
  }

  /** Forgets the budget after a 429 wait (the server's wait already covered the reset). */
  exhaustedUntil(resetAt: number): void {
    this.budget = {limit: this.budget?.limit, remaining: 0, resetAt}
  }

  /** How long the next request should wait before it is sent (and reserves its slot). */
  reserve(): number {
    const now = this.now()
    const b = this.budget
    if (!b || now >= b.resetAt) {
      this.budget = undefined
      this.nextSlot = 0
      return 0
    }
    const lowWater = Math.max(2 * this.concurrency, Math.ceil((b.limit ?? 0) / 20))
    if (b.remaining > lowWater) {
      b.remaining--
      return 0
    }
    if (b.remaining <= 0) {
      // Everything left is for after the reset; stagger the first requests of the next interval a little.
      const slot = Math.max(b.resetAt, this.nextSlot)
      this.nextSlot = slot + 10
      return slot - now
    }
    const interval = (b.resetAt - now) / b.remaining
    const slot = Math.max(now, this.nextSlot)
    this.nextSlot = slot + interval
    b.remaining--
    return slot - now
  }
}

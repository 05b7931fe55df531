/**
 * Adaptive concurrency (AIMD): the platform drops connections (no answer,
 * `fetch failed`) when a quick series of requests arrives, in bursts. A
 * client that keeps its pace keeps losing requests; so after a dropped
 * connection the number of requests the pool lets out at once halves, and
 * it grows back by one after every `limit` answers in a row (one more per
 * round of the pool, as TCP's congestion avoidance does), up to the
 * configured concurrency.
 */

/** The pool's current size, moved by drops and answers. */
export class CongestionWindow {
  private current: number
  private lowestSeen: number
  private round = 0
  private answered = 0
  private halvings = 0

  /** `max`: the configured concurrency, where the window starts and which it never passes. */
  constructor(private readonly max: number) {
    this.current = max
    this.lowestSeen = max
  }

  /** Requests the pool may have out at once now. */
  get limit(): number {
    return this.current
  }

  /** The smallest limit so far. */
  get lowest(): number {
    return this.lowestSeen
  }

  /** How many times the limit was halved. */
  get decreases(): number {
    return this.halvings
  }

  /** The round a request is sent in: drops of requests sent before the last halving do not halve again. */
  get epoch(): number {
    return this.round
  }

  /**
   * A request sent in round `sentIn` lost its connection. The first such
   * loss of a round halves the limit (at least 1) and starts a new round;
   * the rest of the burst, already sent, changes nothing more. Answers
   * whether the limit changed.
   */
  dropped(sentIn: number): boolean {
    this.answered = 0
    if (sentIn !== this.round) return false
    this.round++
    const halved = Math.max(1, Math.floor(this.current / 2))
    if (halved === this.current) return false
    this.current = halved
    this.halvings++
    this.lowestSeen = Math.min(this.lowestSeen, halved)
    return true
  }

  /** A request got an answer (any status: the connection held). Answers whether the limit grew. */
  answer(): boolean {
    if (this.current >= this.max) return false
    this.answered++
    if (this.answered < this.current) return false
    this.answered = 0
    this.current++
    return true
  }
}

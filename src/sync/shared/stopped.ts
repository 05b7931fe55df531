/**
 * A run stopped by its `signal` (the CLI aborts it on SIGINT/SIGTERM): it
 * starts nothing new, cuts off its requests, records what completed (the
 * state journal holds each step as it landed) and ends with `StoppedError`,
 * which says how far it got. The next run converges: it finds what this one
 * recorded, and creates nothing twice (a create in flight left its
 * "create intended" entry).
 *
 * CPU-bound loops (parsing a folder, converting bodies) await `checkpoint`
 * between documents: a chain of promises that never waits for I/O keeps the
 * event loop from ever delivering the signal, so the checkpoint lets it turn
 * now and then, and throws once the signal is aborted.
 */

/** How often a long loop lets the event loop turn (signals, timers, answers), at most. */
const turnEveryMs = 25

let lastTurn = performance.now()

/**
 * Between two documents of a long loop: lets the event loop turn when it has
 * not for a while, then throws the signal's reason once it is aborted. Costs
 * nothing without a signal.
 */
export async function checkpoint(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return
  if (performance.now() - lastTurn >= turnEveryMs) {
    await new Promise<void>((resolve) => setImmediate(resolve))
    lastTurn = performance.now()
  }
  signal.throwIfAborted()
}

/** Whether the run of `signal` was stopped by it. */
export function isStopped(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true
}

/** A push or a pull stopped by its signal: what it wrote is recorded, the rest is the next run's. */
export class StoppedError extends Error {
  override name = 'StoppedError'
  constructor(
    readonly command: 'push' | 'pull',
    /** Writes done: requests that changed the platform (push), files written (pull). */
    readonly done: number,
    /** Writes planned; undefined when the run stopped before its plan was made. */
    readonly total: number | undefined,
    /** The signal's reason. */
    override readonly cause: unknown
  ) {
    super(
      total === undefined
        ? 'stopped: 0 written (while planning); run again to finish'
        : `stopped: ${done} of ${total} written; run again to finish`
    )
  }
}

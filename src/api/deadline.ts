/**
 * The time-out of one exchange, counted in time the process could have
 * read its answer. On a machine of two cores a push converts pages on the
 * main thread: a long conversion keeps the event loop from reading sockets,
 * and a plain timer, run first when the loop comes back (timers before
 * I/O), cut off exchanges whose answers were waiting unread: a create the
 * server had made was reported as timed out, halved the pool and was
 * looked for again. Here the time the loop was held is given back, and the
 * expiry runs after one turn of I/O, so an answer already received is read
 * before it.
 */

/** Timer lateness below this is the ordinary jitter of a loaded machine, not a held loop. */
const heldLoopMs = 200

/** A running time-out; `cancel` stops it (also after it expired). */
export interface Deadline {
  cancel(): void
}

/**
 * Calls `expire` once `ms` of time in which the event loop was free to read
 * answers have passed (time it was held by other work does not count), after
 * a turn of I/O; never after `cancel`.
 */
export function startDeadline(ms: number, expire: () => void): Deadline {
  let timer: NodeJS.Timeout | undefined
  let turn: NodeJS.Immediate | undefined
  let cancelled = false
  const arm = (wait: number) => {
    const due = Date.now() + wait
    timer = setTimeout(() => {
      const held = Date.now() - due
      if (held > heldLoopMs) arm(held)
      else turn = setImmediate(() => cancelled || expire())
    }, wait)
  }
  arm(ms)
  return {
    cancel() {
      cancelled = true
      clearTimeout(timer)
      if (turn) clearImmediate(turn)
    }
  }
}

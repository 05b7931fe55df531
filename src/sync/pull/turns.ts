/**
 * Work started one piece per turn of the event loop. A pull's record
 * arrives in a request slot; converting it there, in the main thread, held
 * the slot (its next request waited for the conversion) and every answer
 * that arrived meanwhile (their next requests waited too), so the network
 * idled while the thread converted. Each piece starts from a timer instead,
 * which runs before the loop polls for I/O: the answers that arrived during
 * a conversion are read after it, and the requests they call for are written
 * in the same turn (the HTTP client writes a request on a kept-alive socket
 * from `setImmediate`, after the poll: a piece started from `setImmediate`
 * too, queued earlier, would run before that write and hold it back).
 */

/** Starts work in turns. */
export interface Turns {
  /** Starts `work` in a later turn of its own (in the order given); resolves or rejects as it does. */
  take<T>(work: () => Promise<T>): Promise<T>
}

/** A queue of work started one piece per turn of the event loop (a timer: before the poll for I/O). */
export function createTurns(): Turns {
  const queue: Array<() => void> = []
  let scheduled = false
  const schedule = () => {
    if (scheduled || queue.length === 0) return
    scheduled = true
    setTimeout(() => {
      scheduled = false
      const start = queue.shift()!
      // The next turn is due before this piece ends: the loop polls once between two pieces, and never waits for the timer.
      schedule()
      start()
    }, 0)
  }
  return {
    take(work) {
      return new Promise((resolve, reject) => {
        queue.push(() => {
          try {
            work().then(resolve, reject)
          } catch (error) {
            reject(error)
          }
        })
        schedule()
      })
    }
  }
}

/**
 * Work started one piece per turn of the event loop. A pull's record
 * arrives in a request slot; converting it there, in the main thread, held
 * the slot (its next request waited for the conversion) and every answer
 * that arrived meanwhile (their next requests waited too), so the network
 * idled while the thread converted. Started from `setImmediate` instead, a
 * conversion runs after the poll phase: the answers that arrived are read
 * and their next requests sent first, and the conversion fills the time
 * they spend on the network.
 */

/** Starts work in turns. */
export interface Turns {
  /** Starts `work` in a later turn of its own (in the order given); resolves or rejects as it does. */
  take<T>(work: () => Promise<T>): Promise<T>
}

/** A queue of work started one piece per turn of the event loop (`setImmediate`, after the poll for I/O). */
export function createTurns(): Turns {
  const queue: Array<() => void> = []
  let scheduled = false
  const schedule = () => {
    if (scheduled || queue.length === 0) return
    scheduled = true
    setImmediate(() => {
      scheduled = false
      queue.shift()!()
      schedule()
    })
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

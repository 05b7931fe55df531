/**
 * One bounded pool for a pull's requests: element reads, permission reads
 * and downloads share it, and a task may add more tasks as its answer
 * arrives (a record read starts the downloads of the files its body uses),
 * so no phase waits for the slowest request of the one before it.
 */

/** A pool of at most `limit` running tasks; tasks may be added while it runs. */
export interface TaskPool {
  /** Queues `task` (before the others when `first`); it starts as soon as fewer than `limit` tasks run. */
  add(task: () => Promise<void>, first?: boolean): void
  /** Resolves once every task added (also those added meanwhile) has settled; rejects with the first failure. */
  drain(): Promise<void>
}

/**
 * Creates a task pool. After a task fails, queued tasks are dropped (the
 * pull fails as a whole) and `drain` rejects with that failure once the
 * running ones have settled.
 */
export function createPool(limit: number): TaskPool {
  const queue: Array<() => Promise<void>> = []
  let running = 0
  let failure: {error: unknown} | undefined
  let waiters: Array<() => void> = []
  const settleIfIdle = () => {
    if (running > 0 || queue.length > 0) return
    const done = waiters
    waiters = []
    for (const wake of done) wake()
  }
  const pump = () => {
    while (running < limit && queue.length > 0) {
      const task = queue.shift()!
      running++
      void Promise.resolve()
        .then(task)
        .catch((error: unknown) => {
          failure ??= {error}
          queue.length = 0
        })
        .finally(() => {
          running--
          pump()
          settleIfIdle()
        })
    }
  }
  return {
    add(task, first = false) {
      if (failure) return
      if (first) queue.unshift(task)
      else queue.push(task)
      pump()
    },
    async drain() {
      if (running > 0 || queue.length > 0) await new Promise<void>((resolve) => waiters.push(resolve))
      if (failure) throw failure.error
    }
  }
}

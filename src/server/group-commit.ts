/**
 * Group commit: callers that want their changes on disk share one flush. A
 * commit asked while a flush runs joins the next one, which starts as soon
 * as the running one ends; so under a stream of concurrent writes the
 * number of syncs follows the time a sync takes, not the number of writes.
 */

/** `commit()` resolves once a flush that started after the call has ended. */
export function groupCommit(flush: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined
  let waiting: Promise<void> | undefined
  return () =>
    (waiting ??= (running ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => {
        // From here on the queue is this flush's: a later commit waits for the next one.
        waiting = undefined
        const flushing = flush().finally(() => {
          if (running === flushing) running = undefined
        })
        running = flushing
        return flushing
      }))
}

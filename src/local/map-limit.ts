/** Bounded concurrency for I/O: reads of many files, requests of many items. */

/**
 * Runs `task` on every item, at most `limit` at a time; resolves with the
 * results in the order of `items`. Rejects with the first failure.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await task(items[index]!)
    }
  }
  await Promise.all(Array.from({length: Math.min(limit, items.length)}, worker))
  return results
}

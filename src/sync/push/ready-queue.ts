/**
 * The scheduler's bookkeeping, so that a completion costs the work of the
 * tasks it concerns and not a pass over all of them: the tasks that can
 * start, by rank (a binary heap), and the tasks that wait, filed under the
 * one key each waits for now (woken when that key's task settles).
 */

/** Tasks by rank, lowest first, each at most once. */
export class ReadyQueue<T> {
  private readonly heap: T[] = []
  private readonly queued = new Set<T>()

  constructor(private readonly rankOf: (task: T) => number) {}

  get size(): number {
    return this.heap.length
  }

  /** Adds `task` unless it is queued already. */
  push(task: T): void {
    if (this.queued.has(task)) return
    this.queued.add(task)
    const heap = this.heap
    heap.push(task)
    let at = heap.length - 1
    while (at > 0) {
      const parent = (at - 1) >> 1
      if (this.rankOf(heap[parent]!) <= this.rankOf(task)) break
      heap[at] = heap[parent]!
      at = parent
    }
    heap[at] = task
  }

  /** Removes and returns the task of lowest rank. */
  pop(): T | undefined {
    const heap = this.heap
    const first = heap[0]
    if (first === undefined) return undefined
    this.queued.delete(first)
    const last = heap.pop()!
    if (heap.length === 0) return first
    let at = 0
    for (;;) {
      const left = 2 * at + 1
      if (left >= heap.length) break
      const right = left + 1
      const child = right < heap.length && this.rankOf(heap[right]!) < this.rankOf(heap[left]!) ? right : left
      if (this.rankOf(heap[child]!) >= this.rankOf(last)) break
      heap[at] = heap[child]!
      at = child
    }
    heap[at] = last
    return first
  }

  /** The first `count` tasks by rank, left queued. */
  peek(count: number): T[] {
    const taken: T[] = []
    while (taken.length < count && this.heap.length > 0) taken.push(this.pop()!)
    for (const task of taken) this.push(task)
    return taken
  }
}

/** Tasks filed under the key each waits for. */
export class Parked<T> {
  private readonly byKey = new Map<string, T[]>()

  /** Files `task` under `key`. */
  park(key: string, task: T): void {
    const list = this.byKey.get(key)
    if (list) list.push(task)
    else this.byKey.set(key, [task])
  }

  /** Takes the tasks filed under `key`. */
  wake(key: string): T[] {
    const list = this.byKey.get(key) ?? []
    this.byKey.delete(key)
    return list
  }
}

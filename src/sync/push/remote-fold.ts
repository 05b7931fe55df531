/**
 * A fold over the remote tree, children before their parent, with an
 * explicit stack: a topic chain may be deeper than a recursion can go (a
 * chain of 12,000 nested topics overflowed `findOrphans`' recursion).
 */
import type {RemoteSnapshot} from '../shared/remote.js'

/** What a fold does at each item: `enter` before its children, `leave` after, with what they gave. */
export interface RemoteFold<T> {
  enter?: (id: string) => void
  leave: (id: string, children: T[]) => T
}

interface Frame<T> {
  id: string
  children: readonly string[]
  results: T[]
}

/**
 * Calls `fold.enter` then `fold.leave` on every item under `remote.top`, in
 * the order a recursion would (depth first, children in order), and returns
 * what `leave` gave each top item.
 */
export function foldRemote<T>(remote: RemoteSnapshot, fold: RemoteFold<T>): T[] {
  const top: T[] = []
  const stack: Frame<T>[] = []
  const open = (id: string) => {
    fold.enter?.(id)
    stack.push({id, children: remote.items[id]!.children, results: []})
  }
  for (const id of remote.top) {
    open(id)
    while (stack.length > 0) {
      const frame = stack.at(-1)!
      if (frame.results.length < frame.children.length) {
        open(frame.children[frame.results.length]!)
        continue
      }
      stack.pop()
      const result = fold.leave(frame.id, frame.results)
      ;(stack.at(-1)?.results ?? top).push(result)
    }
  }
  return top
}

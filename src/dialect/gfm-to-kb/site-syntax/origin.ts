/**
 * Line numbers back to the author's: the MkDocs pass adds a line for each
 * closing tag it writes, so the tree and the messages of the parse count
 * lines of the rewritten source. `origin` maps each of those to the line of
 * the author's file it stands for.
 */
import type {Nodes, Root} from 'mdast'
import type {Point, Position} from 'unist'
import type {VFileMessage} from 'vfile-message'

/** Maps the lines of the positions in `tree` and of `messages` through `origin` (in place). */
export function restoreLines(tree: Root, messages: readonly VFileMessage[], origin: readonly number[]): void {
  // Nodes and messages may share point objects (a title's position is its block's start): each is mapped once.
  const mapped = new Set<Point>()
  const map = (point: Point | undefined) => {
    if (!point || mapped.has(point)) return
    mapped.add(point)
    point.line = origin[point.line - 1] ?? point.line
  }
  const stack: Nodes[] = [tree]
  for (let node = stack.pop(); node; node = stack.pop()) {
    map(node.position?.start)
    map(node.position?.end)
    if ('children' in node) for (const child of node.children) stack.push(child)
  }
  for (const message of messages) {
    if (message.line) message.line = origin[message.line - 1] ?? message.line
    const place = message.place as Position | Point | undefined
    if (place && 'start' in place) {
      map(place.start)
      map(place.end)
    } else map(place)
  }
}

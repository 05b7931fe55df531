/**
 * Moving the places of a parse of part of a source to where they are in
 * the source: from a line on, every point is so many lines and characters
 * further. Transforms may share one point object between nodes (a pair's
 * container starts where its open tag does): each object moves once.
 */
import type {Nodes, Root} from 'mdast'
import type {Point, Position} from 'unist'

/** From `fromLine` (1-based, in the part) on, points are `lines` lines and `offset` characters further. */
export interface Shift {
  fromLine: number
  fromOffset: number
  lines: number
  offset: number
}

/** Moves points, places and offsets by `shifts` (ordered by `fromLine`), each point object once. */
export class Shifter {
  private readonly moved = new WeakSet<Point>()

  constructor(private readonly shifts: readonly Shift[]) {}

  /** Moves every position in `tree` (an explicit stack: a tree nests deeper than the call stack goes). */
  tree(tree: Root): void {
    const stack: Nodes[] = [tree]
    for (let node = stack.pop(); node; node = stack.pop()) {
      this.place(node.position)
      if ('children' in node) for (const child of node.children) stack.push(child)
    }
  }

  /** Moves a position or a point. */
  place(place: Position | Point | undefined): void {
    if (!place) return
    if ('start' in place) {
      this.point(place.start)
      this.point(place.end)
    } else this.point(place)
  }

  /** The offset in the source of `offset` in the part. */
  offset(offset: number): number {
    return offset + (this.last((shift) => shift.fromOffset <= offset)?.offset ?? 0)
  }

  /** The last shift for which `before` holds (it holds for a prefix of the shifts): a binary search. */
  private last(before: (shift: Shift) => boolean): Shift | undefined {
    let low = 0
    let high = this.shifts.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (before(this.shifts[middle]!)) low = middle + 1
      else high = middle
    }
    return this.shifts[low - 1]
  }

  private point(point: Point): void {
    if (this.moved.has(point)) return
    this.moved.add(point)
    const shift = this.last((candidate) => candidate.fromLine <= point.line)
    if (!shift) return
    point.line += shift.lines
    if (point.offset !== undefined) point.offset += shift.offset
  }
}

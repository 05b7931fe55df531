/**
 * The tasks of an apply run: one per document the plan writes (its create,
 * update, rename or move, and its permissions), with the waits the creation
 * order adds, ranked so that what others wait for starts first.
 */
import type {LocalNode} from '../../local/index.js'
import {parentPathOf} from '../shared/parent-path.js'
import type {PlanOp, PushPlan} from '../shared/types.js'
import {creationOrder, waitDepthLimit} from './creation-order.js'
import {linkWaitsOf, structuralWaitsOf} from './wait-graph.js'

/** One document's writes and where they stand. */
export interface Task {
  node: LocalNode
  op?: PlanOp
  permissions?: PlanOp
  status: 'waiting' | 'running' | 'done' | 'failed'
  /** Created with a placeholder body; its real write is still to come. */
  provisional: boolean
  /** Upload files itself even if another document claimed them (cycle fallback). */
  selfUpload: boolean
  /** The sibling created just before this one in this run: created first, so the platform lists siblings in the scanned order. */
  after?: string
  /** Its link waits would close a cycle or chain too deep (`break-waits.ts`): created provisionally as soon as its turn comes. */
  provisionalFirst?: boolean
  /** Its links before this index lead to documents settled (created, or failed), which never unsettle (`scheduler.ts`). */
  linksSettled?: number
}

/** The tasks of `plan`, in plan order, for a run of `concurrency` requests at a time. */
export function tasksOf(plan: PushPlan, byPath: Record<string, LocalNode>, concurrency: number): Task[] {
  const tasks = new Map<string, Task>()
  const taskOf = (path: string) => {
    let task = tasks.get(path)
    if (!task) {
      task = {node: byPath[path]!, status: 'waiting', provisional: false, selfUpload: false}
      tasks.set(path, task)
    }
    return task
  }
  for (const op of plan.ops) {
    if (op.op === 'create' || op.op === 'update' || op.op === 'move' || op.op === 'rename') taskOf(op.path).op = op
    else if (op.op === 'permissions') taskOf(op.path).permissions = op
  }
  const order = creationOrder(plan.ops, byPath, parentPathOf, waitDepthLimit(tasks.size, concurrency))
  for (const [path, previous] of order.after) taskOf(path).after = previous
  for (const path of order.provisionalFirst) taskOf(path).provisionalFirst = true
  return [...tasks.values()]
}

/**
 * The tasks, those that others wait for first: ordered by the longest chain
 * of tasks waiting on each (its folder's documents, the documents linking to
 * it unless they are created provisionally, the sibling created after it:
 * `wait-graph.ts`), then as planned. The scheduler starts ready tasks in this
 * order, so topics and link targets do not queue behind leaves while the
 * documents that need them sit idle (list scheduling by critical path).
 */
export function byPriority(tasks: Task[]): Task[] {
  const waiting = new Map<string, string[]>()
  const wait = (on: string, path: string) => {
    const list = waiting.get(on)
    if (list) list.push(path)
    else waiting.set(on, [path])
  }
  for (const {node, after, provisionalFirst} of tasks) {
    for (const on of structuralWaitsOf(parentPathOf(node), after)) wait(on, node.path)
    if (!provisionalFirst) for (const on of linkWaitsOf(node)) wait(on, node.path)
  }
  const height = chainHeights(waiting)
  const ranked = tasks.map((task, index) => ({task, index, height: height(task.node.path)}))
  return ranked.sort((a, b) => b.height - a.height || a.index - b.index).map((entry) => entry.task)
}

/** The length of the longest chain of waiters on each key (memoised, iterative: chains run thousands deep). */
function chainHeights(waiting: ReadonlyMap<string, readonly string[]>): (path: string) => number {
  const height = new Map<string, number>()
  const open = new Set<string>()
  return (root) => {
    const stack = [{path: root, next: 0, tallest: 0}]
    if (height.has(root)) return height.get(root)!
    open.add(root)
    while (stack.length > 0) {
      const frame = stack.at(-1)!
      const waiters = waiting.get(frame.path) ?? []
      if (frame.next < waiters.length) {
        const path = waiters[frame.next++]!
        const known = height.get(path)
        if (known !== undefined) frame.tallest = Math.max(frame.tallest, known)
        // A link cycle: the back edge adds nothing.
        else if (!open.has(path)) {
          open.add(path)
          stack.push({path, next: 0, tallest: 0})
        }
        continue
      }
      stack.pop()
      open.delete(frame.path)
      height.set(frame.path, frame.tallest + 1)
      const below = stack.at(-1)
      if (below) below.tallest = Math.max(below.tallest, frame.tallest + 1)
    }
    return height.get(root)!
  }
}

/**
 * The tasks of an apply run: one per document the plan writes (its create,
 * update, rename or move, and its permissions), with the waits the creation
 * order adds, ranked so that what others wait for starts first.
 */
import type {LocalNode} from '../../local/index.js'
import {parentPathOf} from '../shared/parent-path.js'
import type {PlanOp, PushPlan} from '../shared/types.js'
import {creationOrder} from './creation-order.js'
import {waitsOf} from './wait-graph.js'

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
  /** Links ahead to a document that waits for it through the order: created provisionally as soon as its turn comes. */
  provisionalFirst?: boolean
}

/** The tasks of `plan`, in plan order. */
export function tasksOf(plan: PushPlan, byPath: Record<string, LocalNode>): Task[] {
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
  const order = creationOrder(plan.ops, byPath, parentPathOf)
  for (const [path, previous] of order.after) taskOf(path).after = previous
  for (const path of order.provisionalFirst) taskOf(path).provisionalFirst = true
  return [...tasks.values()]
}

/**
 * The tasks, those that others wait for first: ordered by the longest chain
 * of tasks waiting on each (its folder's documents, the documents linking to
 * it, the sibling created after it: `waitsOf`), then as planned. The scheduler starts ready tasks in this order, so
 * topics and link targets do not queue behind leaves while the documents
 * that need them sit idle (list scheduling by critical path).
 */
export function byPriority(tasks: Task[]): Task[] {
  const waiting = new Map<string, string[]>()
  const wait = (on: string, path: string) => {
    const list = waiting.get(on)
    if (list) list.push(path)
    else waiting.set(on, [path])
  }
  for (const {node, after} of tasks) for (const on of waitsOf(node, parentPathOf(node), after)) wait(on, node.path)
  const height = new Map<string, number>()
  const open = new Set<string>()
  const heightOf = (path: string): number => {
    const known = height.get(path)
    if (known !== undefined) return known
    // A link cycle: the back edge adds nothing.
    if (open.has(path)) return 0
    open.add(path)
    let tallest = 0
    for (const next of waiting.get(path) ?? []) tallest = Math.max(tallest, heightOf(next))
    open.delete(path)
    height.set(path, tallest + 1)
    return tallest + 1
  }
  const ranked = tasks.map((task, index) => ({task, index, height: heightOf(task.node.path)}))
  return ranked.sort((a, b) => b.height - a.height || a.index - b.index).map((entry) => entry.task)
}

/**
 * `applyPush`: carries out a plan. Documents are written in dependency order
 * (parents before children, link targets before the documents linking to
 * them, the uploader of a file before the other documents using it, new
 * siblings in the scanned order: `creation-order.ts`), at most
 * `concurrency` at a time. When only a link cycle remains, one of its
 * documents is created with its own text (links to documents not created
 * yet written as their text, never a placeholder), which breaks the cycle; it
 * is written whole once the others exist. Deletions (prune)
 * come last and only if every other step succeeded.
 */
import {StateStore, type LocalNode} from '../../local/index.js'
import {writeConflictFile} from '../shared/conflicts.js'
import {createProvisional, messageOf, runRenderContext, writeItem, writePermissions, type RunState} from './item-step.js'
import {creationOrder} from './creation-order.js'
import {contextOf} from './plan.js'
import {parentPathOf} from '../shared/parent-path.js'
import {Prerenderer} from './prerender.js'
import {deleteOrphans} from './prune.js'
import type {PlanOp, PushOptions, PushPlan, PushResult} from '../shared/types.js'

interface Task {
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

/** Applies `plan` (made by `planPush` with the same options). */
export async function applyPush(plan: PushPlan, options: PushOptions): Promise<PushResult> {
  const result: PushResult = {plan, status: 'ok', done: [], skipped: [], failed: [], written: [], writes: 0}
  if (plan.blocked || plan.warningLimit !== undefined) return {...result, status: 'invalid'}
  if (plan.needsConfirmation && !options.yes) return {...result, status: 'refused'}
  const context = contextOf(plan)
  const store = new StateStore(context.scan.dir, context.state)
  const emit = options.onEvent ?? (() => undefined)
  const run: RunState = {
    context,
    options,
    store,
    ids: new Map(context.matching.ids),
    assetHashes: new Map(Object.values(context.scan.assets).map((asset) => [asset.path, asset.sha256])),
    guids: new Map(),
    owners: new Map(),
    failedPaths: new Set(),
    uploadOps: new Map(plan.ops.filter((op) => op.op === 'upload').map((op) => [op.sha256!, op])),
    written: result.written,
    writes: 0,
    lateConflicts: 0,
    emit: (event) => {
      if (event.type === 'done') (event.skipped ? result.skipped : result.done).push(event.op)
      if (event.type === 'failed') result.failed.push({op: event.op, error: event.error})
      emit(event)
    }
  }
  try {
    recordRefresh(run)
    await store.save()
    for (const op of plan.ops.filter((o) => o.op === 'conflict')) {
      try {
        const file = await writeConflictFile(run, op)
        result.written.push(file)
        run.emit({type: 'conflict-file', op, file})
      } catch (error) {
        run.emit({type: 'failed', op, error: messageOf(error)})
      }
    }
    for (const op of plan.ops.filter((o) => o.op === 'drift')) emit({type: 'done', op, skipped: true, note: 'left as is'})
    await runTasks(run, byPriority(tasksOf(plan, context.scan.byPath)), options.concurrency ?? 8)
    const deletions = plan.ops.filter((op) => op.op === 'delete')
    if (deletions.length > 0) {
      if (result.failed.length === 0) await deleteOrphans(run, deletions)
      else for (const op of deletions) run.emit({type: 'done', op, skipped: true, note: 'not pruned: another step of this run failed'})
    }
    await store.save()
  } finally {
    // The journal is open while the steps append to it; a throw on the way must not leave it so.
    await store.close()
  }
  result.writes = run.writes
  result.status = result.failed.length > 0 ? 'failed' : plan.summary.conflict + run.lateConflicts > 0 ? 'conflict' : 'ok'
  return result
}

/** Records what the plan learned without any request: matched items, refreshed baselines; drops stale keys. */
function recordRefresh(run: RunState): void {
  const {state} = run.store
  for (const key of run.context.forget) {
    const entry = state.items[key]
    const movedTo = [...run.ids].find(([, id]) => id === entry?.id)?.[0]
    if (movedTo !== undefined && movedTo !== key && !state.items[movedTo]?.id) state.items[movedTo] = {...entry!}
    delete state.items[key]
  }
  for (const [key, entry] of Object.entries(run.context.refresh)) state.items[key] = entry
}

function tasksOf(plan: PushPlan, byPath: Record<string, LocalNode>): Task[] {
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
 * it), then as planned. The scheduler starts ready tasks in this order, so
 * topics and link targets do not queue behind leaves while the documents
 * that need them sit idle (list scheduling by critical path).
 */
function byPriority(tasks: Task[]): Task[] {
  const waiting = new Map<string, string[]>()
  const wait = (on: string, path: string) => {
    const list = waiting.get(on)
    if (list) list.push(path)
    else waiting.set(on, [path])
  }
  for (const {node} of tasks) {
    const parent = parentPathOf(node)
    if (parent !== '') wait(parent, node.path)
    for (const link of node.refs.links) if (link.target !== '' && link.target !== node.path) wait(link.target, node.path)
  }
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

type Readiness = 'ready' | 'wait' | 'provisional' | {fail: string}

function readiness(run: RunState, task: Task): Readiness {
  const {node} = task
  const parentPath = parentPathOf(node)
  if (parentPath !== '' && !run.ids.has(parentPath)) {
    return run.failedPaths.has(parentPath) ? {fail: `its folder ${parentPath} could not be created`} : 'wait'
  }
  if (!task.op) return 'ready'
  if (!inOrder(run, task)) return 'wait'
  if (task.provisionalFirst && !task.provisional && !run.ids.has(node.path)) return 'provisional'
  for (const link of node.refs.links) {
    if (link.target === '' || run.ids.has(link.target) || link.target === node.path) continue
    return run.failedPaths.has(link.target) ? {fail: `it links to ${link.target}, which could not be written`} : 'wait'
  }
  if (task.selfUpload) return 'ready'
  for (const asset of node.refs.assets) {
    if (run.store.state.assets[asset.sha256]?.url) continue
    const owner = run.owners.get(asset.sha256)
    if (owner !== undefined && owner !== node.path && !run.failedPaths.has(owner)) return 'wait'
  }
  return 'ready'
}

/** Runs the tasks in dependency order with bounded concurrency. */
async function runTasks(run: RunState, tasks: Task[], concurrency: number): Promise<void> {
  const running = new Set<Promise<void>>()
  const start = (task: Task, action: () => Promise<void>) => {
    task.status = 'running'
    const promise: Promise<void> = action().finally(() => running.delete(promise))
    running.add(promise)
  }
  const fail = (task: Task, error: string) => {
    task.status = 'failed'
    run.failedPaths.add(task.node.path)
    for (const op of [task.op, task.permissions]) if (op) run.emit({type: 'failed', op, error})
  }
  const execute = (task: Task) => async () => {
    const op = task.op
    try {
      if (op) {
        run.emit({type: 'start', op})
        await writeItem(run, task.node, op)
      }
      if (task.permissions) {
        run.emit({type: 'start', op: task.permissions})
        await writePermissions(run, task.node, task.permissions)
      }
      task.status = 'done'
    } catch (error) {
      fail(task, messageOf(error))
    }
  }
  // Created with a placeholder body so others can link to it; back to waiting for its real write.
  const startProvisional = (task: Task) => {
    task.provisional = true
    start(task, async () => {
      try {
        await createProvisional(run, task.node, task.op!)
        task.status = 'waiting'
      } catch (error) {
        fail(task, messageOf(error))
      }
    })
  }
  const ahead = new Prerenderer(runRenderContext(run))
  try {
    for (;;) {
      const waiting = tasks.filter((task) => task.status === 'waiting')
      if (waiting.length === 0 && running.size === 0) return
      // Ready documents beyond the free slots are the next to go: their bodies are rendered while the requests in flight wait.
      const next: LocalNode[] = []
      for (const task of waiting) {
        const ready = readiness(run, task)
        if (ready === 'wait') continue
        if (ready === 'provisional') {
          if (running.size < concurrency) startProvisional(task)
          continue
        }
        if (ready !== 'ready') {
          fail(task, ready.fail)
          continue
        }
        if (running.size < concurrency) {
          // A document claims the files it will upload now, so others wait for its URL instead of uploading twice.
          for (const asset of task.node.refs.assets) if (!run.owners.has(asset.sha256) && !run.store.state.assets[asset.sha256]?.url) run.owners.set(asset.sha256, task.node.path)
          start(task, execute(task))
          continue
        }
        if (task.op) next.push(task.node)
        if (next.length >= concurrency) break
      }
      if (running.size > 0) {
        ahead.offer(next)
        await Promise.race(running)
        continue
      }
      const still = tasks.filter((task) => task.status === 'waiting')
      if (still.length === 0) continue
      // Nothing can run: only a cycle is left. Break it with a provisional create, else let a document upload for itself.
      const breakable = (task: Task) => task.op?.op === 'create' && !task.provisional && !run.ids.has(task.node.path) && readinessOfParent(run, task)
      // The next sibling in order first, so a provisional create keeps the order too (a chapter linking to a later one).
      const breaker = still.find((task) => breakable(task) && inOrder(run, task)) ?? still.find(breakable)
      if (breaker) {
        startProvisional(breaker)
        continue
      }
      const uploader = still.find((task) => !task.selfUpload)
      if (uploader) {
        uploader.selfUpload = true
        continue
      }
      for (const task of still) fail(task, 'its dependencies could not be resolved')
    }
  } finally {
    ahead.stop()
  }
}

/** Whether the sibling to be created before `task` is created (or failed: the order cannot be kept then). */
function inOrder(run: RunState, task: Task): boolean {
  return task.after === undefined || run.ids.has(task.after) || run.failedPaths.has(task.after)
}

function readinessOfParent(run: RunState, task: Task): boolean {
  const parentPath = parentPathOf(task.node)
  return parentPath === '' || run.ids.has(parentPath)
}

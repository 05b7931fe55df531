/**
 * Runs the tasks of an apply in dependency order with bounded concurrency:
 * a task starts once its folder exists, the sibling before it is created,
 * its link targets have ids and the documents uploading its files are done.
 * Ready documents beyond the free slots are rendered ahead while requests are
 * in flight. When nothing can run, only a cycle is left: one document is
 * created provisionally (its own text, links to documents not created yet
 * as text), or a document uploads its files itself.
 */
import type {LocalNode, LocalWriteError} from '../../local/index.js'
import {localWriteFailureOf} from '../shared/local-fault.js'
import {parentPathOf} from '../shared/parent-path.js'
import {createProvisional, messageOf, runRenderContext, writeItem, type RunState} from './item-step.js'
import {writePermissions} from './permissions-step.js'
import {Prerenderer} from './prerender.js'
import {isStopped} from '../shared/stopped.js'
import type {Task} from './tasks.js'

type Readiness = 'ready' | 'wait' | 'provisional' | {fail: string}

/** The tasks in flight, and how tasks start and fail. */
interface Pool {
  run: RunState
  running: Set<Promise<void>>
  concurrency: number
}

/** Whether `task` may start now, must wait, should be created provisionally, or cannot be written. */
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
    // A target that could not be created fails no one: the link is published as its text, and completed next run (`writeItem`).
    if (link.target === '' || run.ids.has(link.target) || link.target === node.path || run.failedPaths.has(link.target))
      continue
    return 'wait'
  }
  if (task.selfUpload) return 'ready'
  for (const asset of node.refs.assets) {
    if (run.store.state.assets[asset.sha256]?.url) continue
    const owner = run.owners.get(asset.sha256)
    if (owner !== undefined && owner !== node.path && !run.failedPaths.has(owner)) return 'wait'
  }
  return 'ready'
}

function start(pool: Pool, task: Task, action: () => Promise<void>): void {
  task.status = 'running'
  const promise: Promise<void> = action().finally(() => pool.running.delete(promise))
  pool.running.add(promise)
}

function fail(run: RunState, task: Task, error: unknown): void {
  // A step the run's stop cut off did not fail: it is left for the next run (nothing new starts now).
  if (isStopped(run.options.signal)) {
    task.status = 'waiting'
    return
  }
  task.status = 'failed'
  run.failedPaths.set(task.node.path, messageOf(error))
  // A full disk is the run's fault, not the document's: the run stops, and says so once (`local-fault.ts`).
  const local = localWriteFailureOf(error)
  if (local) {
    run.localFault ??= local
    return
  }
  for (const op of [task.op, task.permissions]) if (op) run.emit({type: 'failed', op, error: messageOf(error)})
}

/** Why the run starts no new task: a local write failed (what it did next might not be recorded). */
export function stoppedBy(run: RunState): LocalWriteError | undefined {
  return run.localFault ?? run.store.stopped
}

/** Whether the run starts no new task: a local write failed, or the run's signal stopped it. */
export function halted(run: RunState): boolean {
  return stoppedBy(run) !== undefined || isStopped(run.options.signal)
}

/** Writes the document, then its permissions. */
async function execute(run: RunState, task: Task): Promise<void> {
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
    fail(run, task, error)
  }
}

/** Created with its own text so others can link to it; back to waiting for its whole write. */
function startProvisional(pool: Pool, task: Task): void {
  task.provisional = true
  start(pool, task, async () => {
    try {
      await createProvisional(pool.run, task.node, task.op!)
      task.status = 'waiting'
    } catch (error) {
      fail(pool.run, task, error)
    }
  })
}

/** Starts the ready tasks while slots are free; returns the next documents to render ahead. */
function startReady(pool: Pool, waiting: Task[]): LocalNode[] {
  const {run, running, concurrency} = pool
  const next: LocalNode[] = []
  if (halted(run)) return next
  for (const task of waiting) {
    const ready = readiness(run, task)
    if (ready === 'wait') continue
    if (ready === 'provisional') {
      if (running.size < concurrency) startProvisional(pool, task)
      continue
    }
    if (ready !== 'ready') {
      fail(run, task, ready.fail)
      continue
    }
    if (running.size < concurrency) {
      // A document claims the files it will upload now, so others wait for its URL instead of uploading twice.
      for (const asset of task.node.refs.assets)
        if (!run.owners.has(asset.sha256) && !run.store.state.assets[asset.sha256]?.url)
          run.owners.set(asset.sha256, task.node.path)
      start(pool, task, () => execute(run, task))
      continue
    }
    if (task.op) next.push(task.node)
    if (next.length >= concurrency) break
  }
  return next
}

/** Nothing runs and nothing can start: only a cycle is left. Breaks it with a provisional create, else lets a document upload for itself, else fails the rest. */
function breakCycle(pool: Pool, still: Task[]): void {
  const {run} = pool
  const breakable = (task: Task) =>
    task.op?.op === 'create' && !task.provisional && !run.ids.has(task.node.path) && parentCreated(run, task)
  // The next sibling in order first, so a provisional create keeps the order too (a chapter linking to a later one).
  const breaker = still.find((task) => breakable(task) && inOrder(run, task)) ?? still.find(breakable)
  if (breaker) {
    startProvisional(pool, breaker)
    return
  }
  const uploader = still.find((task) => !task.selfUpload)
  if (uploader) {
    uploader.selfUpload = true
    return
  }
  for (const task of still) fail(run, task, 'its dependencies could not be resolved')
}

/** Runs the tasks in dependency order with bounded concurrency. */
export async function runTasks(run: RunState, tasks: Task[], concurrency: number): Promise<void> {
  const pool: Pool = {run, running: new Set(), concurrency}
  const ahead = new Prerenderer(runRenderContext(run))
  try {
    for (;;) {
      const waiting = tasks.filter((task) => task.status === 'waiting')
      if ((waiting.length === 0 || halted(run)) && pool.running.size === 0) return
      const next = startReady(pool, waiting)
      if (pool.running.size > 0) {
        ahead.offer(next)
        await Promise.race(pool.running)
        continue
      }
      const still = tasks.filter((task) => task.status === 'waiting')
      if (still.length > 0 && !halted(run)) breakCycle(pool, still)
    }
  } finally {
    ahead.stop()
  }
}

/** Whether the sibling to be created before `task` is created (or failed: the order cannot be kept then). */
function inOrder(run: RunState, task: Task): boolean {
  return task.after === undefined || run.ids.has(task.after) || run.failedPaths.has(task.after)
}

function parentCreated(run: RunState, task: Task): boolean {
  const parentPath = parentPathOf(task.node)
  return parentPath === '' || run.ids.has(parentPath)
}

/**
 * Runs the tasks of an apply in dependency order with bounded concurrency:
 * a task starts once its folder exists, the sibling before it is created,
 * its link targets have ids and the documents uploading its files are done.
 * Ready documents beyond the free slots are rendered ahead while requests are
 * in flight. Each waiting task is filed under the one key it waits for now
 * and looked at again when that key's task settles, so a run costs time in
 * proportion to its waits, not tasks times completions. The creation order
 * (`creation-order.ts`) already broke link cycles and deep chains; should
 * nothing run anyway, one document is created provisionally (its own text,
 * links to documents not created yet as text), or a document uploads its
 * files itself.
 */
import type {LocalWriteError} from '../../local/index.js'
import {localWriteFailureOf} from '../shared/local-fault.js'
import {parentPathOf} from '../shared/parent-path.js'
import {listingsOf} from './converge.js'
import {createProvisional, messageOf, runRenderContext, writeItem, type RunState} from './item-step.js'
import {writePermissions} from './permissions-step.js'
import {Prerenderer} from './prerender.js'
import {isStopped} from '../shared/stopped.js'
import {Parked, ReadyQueue} from './ready-queue.js'
import type {Task} from './tasks.js'

/** What a task may do now (`readiness`). */
export type Readiness = 'ready' | 'provisional' | {wait: string} | {fail: string}

/** The tasks in flight, those ready to start, those waiting, and how tasks start and fail. */
interface Pool {
  run: RunState
  running: Set<Promise<void>>
  concurrency: number
  ready: ReadyQueue<Task>
  parked: Parked<Task>
  /** Tasks to look at again: all at first, then those woken by the task they waited for. */
  recheck: Task[]
  /** Settles the wait of the run's loop: a task settled, or a create began or ended waiting for a listing. */
  nudge: () => void
}

/** Whether `task` may start now, must wait (for the key named), should be created provisionally, or cannot be written. */
export function readiness(run: RunState, task: Task): Readiness {
  const {node} = task
  const parentPath = parentPathOf(node)
  if (parentPath !== '' && !run.ids.has(parentPath)) {
    return run.failedPaths.has(parentPath)
      ? {fail: `its folder ${parentPath} could not be created`}
      : {wait: parentPath}
  }
  if (!task.op) return 'ready'
  if (!inOrder(run, task)) return {wait: task.after!}
  if (task.provisionalFirst && !task.provisional && !run.ids.has(node.path)) return 'provisional'
  // A target settled (an id, or failed) stays so: each look resumes at the first link not settled at the last, so a
  // document of n links woken by each target in turn costs n lookups in all, not n * n / 2.
  const links = node.refs.links
  for (let at = task.linksSettled ?? 0; at < links.length; at++) {
    const {target} = links[at]!
    // A target that could not be created fails no one: the link is published as its text, and completed next run (`writeItem`).
    if (target === '' || run.ids.has(target) || target === node.path || run.failedPaths.has(target)) continue
    task.linksSettled = at
    return {wait: target}
  }
  task.linksSettled = links.length
  if (task.selfUpload) return 'ready'
  for (const asset of node.refs.assets) {
    if (run.store.state.assets[asset.sha256]?.url) continue
    const owner = run.owners.get(asset.sha256)
    if (owner !== undefined && owner !== node.path && !run.failedPaths.has(owner)) return {wait: owner}
  }
  return 'ready'
}

/** Queues for another look the tasks waiting for `task`, and `task` itself if it waits again (after a provisional create). */
function wake(pool: Pool, task: Task): void {
  for (const waiter of pool.parked.wake(task.node.path)) pool.recheck.push(waiter)
  if (task.status === 'waiting') pool.recheck.push(task)
}

/** Files each task to look at again as ready, waiting (under what it waits for) or failed (waking its own waiters). */
function drain(pool: Pool): void {
  for (let task = pool.recheck.pop(); task; task = pool.recheck.pop()) {
    if (task.status !== 'waiting') continue
    const ready = readiness(pool.run, task)
    if (ready === 'ready' || ready === 'provisional') pool.ready.push(task)
    else if ('wait' in ready) pool.parked.park(ready.wait, task)
    else {
      fail(pool.run, task, ready.fail)
      wake(pool, task)
    }
  }
}

function start(pool: Pool, task: Task, action: () => Promise<void>): void {
  task.status = 'running'
  const promise: Promise<void> = action().finally(() => {
    pool.running.delete(promise)
    wake(pool, task)
    pool.nudge()
  })
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

/** Starts ready tasks, most urgent first, while slots are free. */
function startReady(pool: Pool): void {
  const {run, running, concurrency} = pool
  if (halted(run)) return
  // A create waiting for its topic's listing holds no slot: the creates that answer meanwhile share that listing.
  while (running.size - listingsOf(run).waitingForListings < concurrency) {
    const task = pool.ready.pop()
    if (!task) return
    if (task.status !== 'waiting') continue
    // Looked at again: a document started since may have claimed a file this one needs.
    const ready = readiness(run, task)
    if (ready === 'provisional') startProvisional(pool, task)
    else if (ready === 'ready') {
      // A document claims the files it will upload now, so others wait for its URL instead of uploading twice.
      for (const asset of task.node.refs.assets)
        if (!run.owners.has(asset.sha256) && !run.store.state.assets[asset.sha256]?.url)
          run.owners.set(asset.sha256, task.node.path)
      start(pool, task, () => execute(run, task))
    } else {
      pool.recheck.push(task)
      drain(pool)
    }
  }
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
    pool.recheck.push(uploader)
    return
  }
  for (const task of still) fail(run, task, 'its dependencies could not be resolved')
}

/**
 * Runs the tasks in dependency order with bounded concurrency, `tasks` first
 * among those ready at once. Event-driven: a completion looks again only at
 * the tasks that waited for it.
 */
export async function runTasks(run: RunState, tasks: Task[], concurrency: number): Promise<void> {
  const rank = new Map(tasks.map((task, index) => [task, index]))
  const pool: Pool = {
    run,
    running: new Set(),
    concurrency,
    ready: new ReadyQueue((task) => rank.get(task)!),
    parked: new Parked(),
    recheck: [...tasks],
    nudge: () => undefined
  }
  const ahead = new Prerenderer(runRenderContext(run), run.context.scan.dir)
  const listings = listingsOf(run)
  listings.onWaitingChange(() => pool.nudge())
  try {
    for (;;) {
      drain(pool)
      startReady(pool)
      if (pool.running.size > 0) {
        // The next documents in line wait only for a slot: their bodies are rendered meanwhile.
        const next = halted(run) ? [] : pool.ready.peek(concurrency).filter((task) => task.op)
        ahead.offer(next.map((task) => task.node))
        // One promise per turn, not one reaction per running task (thousands may wait for a listing).
        await new Promise<void>((resolve) => (pool.nudge = resolve))
        continue
      }
      if (halted(run)) return
      const still = tasks.filter((task) => task.status === 'waiting')
      if (still.length === 0) return
      breakCycle(pool, still)
    }
  } finally {
    listings.onWaitingChange(undefined)
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

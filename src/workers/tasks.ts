/**
 * The tasks a worker runs, by name: each a pure function of plain data,
 * loaded on first use (`import()`: this folder depends on no other at load
 * time, so the engine may import the pool without a cycle). The same
 * functions run in-process when the pool has no workers.
 */

/** A task: plain data in, plain data out (sync or async). */
type Task = (input: never) => unknown

/** Each task's module, loaded when the task first runs. */
const loaders: Record<string, () => Promise<Task>> = {
  // A remote body to the text of its pulled file, with the facts the pull keeps (`sync/pull/body-task.ts`).
  pullBody: async () => (await import('../sync/pull/body-task.js')).pullBodyTask,
  // A pulled file's body rendered as push will render it, for the check after the pull (`sync/pull/check-task.ts`).
  renderCheck: async () => (await import('../sync/pull/check-task.js')).renderCheckTask
}

const loaded = new Map<string, Promise<Task>>()
const shared = new Map<string, unknown>()

/** Keeps `value` under `key` for the tasks of this thread (undefined forgets it). */
export function setShared(key: string, value: unknown): void {
  if (value === undefined) shared.delete(key)
  else shared.set(key, value)
}

/** The value shared under `key` with this thread's tasks; throws when none is (a task sent before its data). */
export function sharedValue<T>(key: string): T {
  if (!shared.has(key)) throw new Error(`no data is shared under "${key}"`)
  return shared.get(key) as T
}

/** The names of the tasks a worker knows. */
export type TaskName = keyof typeof loaders

/** Runs the task `name` on `input` (in this thread); throws for a task no one registered. */
export async function runTask(name: string, input: unknown): Promise<unknown> {
  const load = loaders[name]
  if (load === undefined) throw new Error(`no conversion task is named "${name}"`)
  let task = loaded.get(name)
  if (task === undefined) {
    task = load()
    loaded.set(name, task)
  }
  return (await task)(input as never)
}

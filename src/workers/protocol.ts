/**
 * What passes between the pool and a worker: plain data only (structured
 * clone), never trees or functions. A worker answers each request with
 * the same `id`, either the task's output or the message of what it threw.
 */

/** A task for a worker: which one, and its input. */
export interface TaskRequest {
  id: number
  task: string
  input: unknown
}

/** Data every task may read by `key` (`sharedValue`), sent to each worker once rather than with every task; `value` undefined forgets it. */
export interface ShareRequest {
  share: string
  value: unknown
}

/** What the pool sends a worker. */
export type WorkerMessage = TaskRequest | ShareRequest

/** A worker's answer to the request `id`. */
export type TaskAnswer = {id: number; output: unknown} | {id: number; error: string}

/** Whether `value` is an answer a worker sends (anything else on the channel is ignored). */
export function isTaskAnswer(value: unknown): value is TaskAnswer {
  if (typeof value !== 'object' || value === null || !('id' in value)) return false
  return typeof value.id === 'number' && ('output' in value || ('error' in value && typeof value.error === 'string'))
}

/** The message of what a task threw, as the worker reports it. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

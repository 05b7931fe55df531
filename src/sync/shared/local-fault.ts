/**
 * A run stopped by a local write that failed for a reason of the machine (a
 * full disk, a read-only file system: `LocalWriteError`). It is the run's
 * fault, not a document's: the run starts nothing new and ends with one
 * message that names the file, says what already changed (on the platform
 * for a push, in the folder for a pull), that it is recorded, and that the
 * next run completes it.
 */
import {LocalWriteError} from '../../local/index.js'
import type {PlanOp} from './types.js'

/** The local write failure behind `error`, when it is one. */
export function localWriteFailureOf(error: unknown): LocalWriteError | undefined {
  if (error instanceof LocalWriteError) return error
  if (error instanceof LocalFaultError) return error.fault
  return undefined
}

/** A push or a pull stopped by a local write failure, with what it had done: its message is the whole story. */
export class LocalFaultError extends Error {
  override name = 'LocalFaultError'
  constructor(
    readonly fault: LocalWriteError,
    readonly command: 'push' | 'pull',
    /** What the run changed before it stopped, counted ("created 12 items, uploaded 3 files"), or empty. */
    readonly changes: string
  ) {
    const where = command === 'push' ? 'on the platform' : 'in the folder'
    const done =
      changes === ''
        ? `nothing was changed ${where}`
        : `${where} this run had already ${changes}, each recorded in .kbsync/state.journal`
    const stopped = command === 'push' ? '; kbsync started no write to the platform after it' : ''
    super(
      `${fault.message}${stopped}. Before that, ${done}. Free space (or make the folder writable) and run kbsync ${command} again: it completes the job without doing anything twice.`
    )
  }
}

/** What the ops done by a push changed on the platform, counted: "created 3 items, updated 2, uploaded 1 file". */
export function pushChanges(done: readonly PlanOp[]): string {
  const count = (kinds: readonly string[]) => done.filter((op) => kinds.includes(op.op)).length
  const parts: string[] = []
  const created = count(['create'])
  const updated = count(['update', 'move', 'rename', 'permissions'])
  const uploaded = count(['upload'])
  const deleted = count(['delete'])
  const archived = count(['archive'])
  if (created > 0) parts.push(`created ${plural(created, 'item')}`)
  if (updated > 0) parts.push(`updated ${plural(updated, 'item')}`)
  if (uploaded > 0) parts.push(`uploaded ${plural(uploaded, 'file')}`)
  if (deleted > 0) parts.push(`deleted ${plural(deleted, 'item')}`)
  if (archived > 0) parts.push(`archived ${plural(archived, 'item')}`)
  return parts.join(', ')
}

/** What a pull wrote in the folder before it stopped: "written 12 files". */
export function pullChanges(written: readonly string[]): string {
  return written.length > 0 ? `written ${plural(written.length, 'file')}` : ''
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

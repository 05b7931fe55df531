/**
 * Conflict copies: when the file changed locally and the document on the
 * platform too (or a file never synced differs from the platform), the file
 * is kept and the remote version is written beside it as `NAME.remote.md`.
 */
import {conflictFileOf} from '../shared/conflicts.js'
import {writeAtomic} from '../shared/document-files.js'
import type {PullOp} from './plan.js'
import type {ApplyRun} from './run.js'

/**
 * Writes the conflict copy of `op` holding `text` when the file (`current`,
 * undefined when missing) needs one; returns whether it did. A file that
 * already holds the remote version (a conflict resolved by taking it) needs
 * none: it is written and recorded as pulled.
 */
export async function writeConflictCopy(
  run: ApplyRun,
  op: PullOp,
  text: string,
  current: string | undefined
): Promise<boolean> {
  const conflicting =
    op.op === 'conflict' ||
    op.localEdits === true ||
    (op.unverified === true && current !== undefined && current !== text)
  if (!conflicting || current === text) return false
  const file = conflictFileOf(op.file)
  await writeAtomic(run.dir, file, text)
  run.result.written.push(file)
  run.result.conflicts.push(file)
  run.emit({type: 'conflict-file', op, file})
  // An unsynced pinned file keeps no baseline that would let a push overwrite the remote silently.
  if (!run.book.before.has(op.id)) {
    const item = run.context.remote.items[op.id]!
    run.book.after.set(op.id, {
      key: op.path,
      entry: {id: op.id, type: item.type, title: item.title, parentId: item.parentId, remoteHash: ''}
    })
  }
  return true
}

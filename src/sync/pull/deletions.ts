/**
 * Deletions of a pull: the files of documents deleted on the platform (and
 * edited by nobody locally), children before their folders, each where it
 * is now (a folder above it may have moved in this same pull).
 */
import path from 'node:path'
import {removeInside} from '../../local/index.js'
import {isTopicFolder} from '../shared/document-layout.js'
import {assetsFolder} from './assets.js'
import {removeIfEmpty} from './empty-folders.js'
import {relocated} from './moves.js'
import {permissionsFile} from './permission-files.js'
import type {PullOp, PullPlan} from './plan.js'
import type {ApplyRun} from './run.js'

/** Removes a file with its `_assets` folder, and the `_assets` folder beside it once empty. */
function deleteFile(dir: string, file: string): void {
  removeInside(dir, file)
  removeInside(dir, assetsFolder(file))
  removeIfEmpty(dir, path.posix.join(path.posix.dirname(file), '_assets'))
}

/**
 * Removes a document's files: an article's file; a topic's body file
 * (`_index.md`, `index.md`, a chapter's page) and, for a folder, its
 * permission file and the folder once empty (a navigation section has no
 * file: its entry is all it is).
 */
function deleteDocument(dir: string, op: PullOp): void {
  if (op.file !== '') deleteFile(dir, op.file)
  if (!isTopicFolder(op)) return
  removeInside(dir, permissionsFile(op.path))
  removeIfEmpty(dir, op.path)
}

/** The deletions of `plan`, where each document is after `moves`, deepest first. */
export function deletionsOf(plan: PullPlan, moves: readonly PullOp[]): PullOp[] {
  return plan.ops
    .filter((op) => op.op === 'delete')
    .map((op) => relocated(op, moves))
    .sort((a, b) => b.path.split('/').length - a.path.split('/').length)
}

/** Applies the deletions of the run's plan; a deleted item leaves the state's "before" entries. */
export function applyDeletions(run: ApplyRun, moves: readonly PullOp[]): void {
  for (const op of deletionsOf(run.plan, moves)) {
    try {
      deleteDocument(run.dir, op)
      run.result.written.push(op.file)
      run.book.before.delete(op.id)
      run.emit({type: 'done', op, changed: true})
    } catch (error) {
      run.fail(op, error)
    }
  }
}

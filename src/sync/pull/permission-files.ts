/**
 * A topic's `_permissions.yml`: written when the permissions read name
 * people of their own or stop inheriting, removed when they no longer do
 * (only when kbsync wrote such a file before), never touched when the
 * permissions were not read (closed to the account, or `--no-permissions`).
 */
import path from 'node:path'
import {removeInside, type LocalPermissions} from '../../local/index.js'
import {permissionsText, readText, writeAtomic} from '../shared/document-files.js'
import {isTopicFolder} from '../shared/document-layout.js'
import type {PullOp} from './plan.js'
import type {ApplyRun} from './run.js'

/** The permission file of the topic at `topicPath` (`''`: the root). */
export const permissionsFile = (topicPath: string): string => path.posix.join(topicPath, '_permissions.yml')

/** Writes or removes the permission file of the topic `op` as the permissions read say (`declared`). */
export async function writePermissionFile(
  run: ApplyRun,
  op: PullOp,
  declared: LocalPermissions | undefined
): Promise<void> {
  // A chapter's page or a navigation section is no folder: its permissions have no file of their own.
  if (!isTopicFolder(op) || !(op.id in run.context.remote.permissions)) return
  const file = permissionsFile(op.path)
  if (declared) {
    if (await writeAtomic(run.dir, file, permissionsText(declared))) run.result.written.push(file)
  } else if (
    run.book.before.get(op.id)?.entry.permissionsKey !== undefined &&
    (await readText(path.join(run.dir, file))) !== undefined
  ) {
    removeInside(run.dir, file)
    run.result.written.push(file)
  }
}

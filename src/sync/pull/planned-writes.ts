/** Every path a pull plan may write, move or remove: checked before anything is written. */
import {stateFiles} from '../../local/index.js'
import {conflictFileOf} from '../shared/conflicts.js'
import {isTopicFolder} from '../shared/document-layout.js'
import type {RemoteSnapshot} from '../shared/remote.js'
import {assetsFolder} from './assets.js'
import {stagingFolder} from './moves.js'
import {permissionsFile} from './permission-files.js'
import type {PullPlan} from './plan.js'
import {downloadsFolder} from './prefetch.js'

/**
 * The paths (relative to the folder) that applying `plan` may write, move or
 * remove (pure): `planPullRun` checks them all before anything is written,
 * so a link out of the folder refuses the pull instead of half of it.
 */
export function plannedWrites(plan: PullPlan, remote: RemoteSnapshot): string[] {
  const paths = [
    ...stateFiles,
    downloadsFolder,
    ...(plan.navigation ?? []).map((edits) => edits.file),
    ...(plan.keptFolders ?? []).map((kept) => kept.file)
  ]
  for (const op of plan.ops) {
    if (op.from !== undefined) paths.push(op.from, op.path, stagingFolder)
    if (op.type === 'article' && op.from !== undefined) paths.push(assetsFolder(op.from), assetsFolder(op.path))
    if (op.op === 'delete' && op.file !== '') paths.push(op.file, assetsFolder(op.file))
    const detail = op.op === 'delete' ? undefined : remote.details[op.id]
    if (detail === undefined) continue
    if (op.file !== '') paths.push(op.file)
    if (op.file !== '' && (op.op === 'conflict' || op.unverified)) paths.push(conflictFileOf(op.file))
    if (isTopicFolder(op)) paths.push(permissionsFile(op.path))
    if (detail.files.length > 0) paths.push(assetsFolder(op.file))
  }
  return paths
}

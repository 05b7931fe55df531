/**
 * The archive part of the plan (`onOrphan: archive`): the orphans `--prune`
 * would delete are moved under the archive topic instead, with the same
 * guards (only what kbsync created or matched under the root, a topic only
 * when all it holds goes too, never on an empty scan). Only the topmost of
 * them moves: what a moved topic holds comes along.
 */
import type {LocalNode} from '../../local/index.js'
import {takenTitle, type ArchiveTopic} from '../shared/archive.js'
import type {Orphan} from '../shared/types.js'
import type {PlanRun} from './plan-document.js'

/** Plans the moves of the prunable orphans under the archive; returns how many. */
export function planArchives(run: PlanRun, orphans: Orphan[], archive: ArchiveTopic): number {
  const {remote, scan} = run
  if (scan.articleCount === 0 || archive.refused) return 0
  const moving = new Set(orphans.filter((orphan) => orphan.prunable).map((orphan) => orphan.remoteId))
  let count = 0
  for (const orphan of orphans) {
    const parentId = remote.items[orphan.remoteId]!.parentId
    // A child of a topic that moves goes with it: one request for the topic.
    if (!moving.has(orphan.remoteId) || (parentId !== null && moving.has(parentId))) continue
    run.ops.push({
      op: 'archive',
      path: orphan.path ?? '',
      type: orphan.type,
      remoteId: orphan.remoteId,
      title: orphan.title,
      parentId,
      reason: `${orphan.reason}: moved under "${archive.title}"${archive.id === undefined ? ' (created)' : ''}`
    })
    count++
  }
  return count
}

/** The error of a document at the root titled like the archive topic (it would be matched to it, or sit beside it). */
export function archiveTitleTaken(root: LocalNode, archive: ArchiveTopic): ArchiveTopic {
  if (archive.refused) return archive
  const wanted = archive.title.trim().toLowerCase()
  const taken = root.kind === 'topic' && root.children.some((child) => child.title.trim().toLowerCase() === wanted)
  return taken ? {...archive, refused: takenTitle(archive.title)} : archive
}

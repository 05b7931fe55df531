/**
 * Archiving (`onOrphan: archive`): moves the orphans the plan selected
 * under the archive topic, creating it at the root first when it is
 * missing. Runs where pruning would, after every other step and only when
 * none of them failed. What moved is forgotten in the state: the archive is
 * the platform's, and kbsync never deletes or moves what it holds.
 */
import {messageOf, type RunState} from './item-step.js'
import {subtreeOf} from '../shared/archive.js'
import type {PlanOp} from '../shared/types.js'

/** Moves the planned orphans under the archive topic, one request each; stops at the first failure. */
export async function archiveOrphans(run: RunState, moves: PlanOp[]): Promise<void> {
  const {remote, archive} = run.context
  let archiveId = archive?.id
  for (const op of moves) {
    // The plan only ever selects items of the tree under the root; this says so where the move is sent.
    if (!archive || !Object.hasOwn(remote.items, op.remoteId!)) {
      run.emit({type: 'done', op, skipped: true, note: 'not archived: not an item under the root topic'})
      continue
    }
    run.emit({type: 'start', op})
    try {
      archiveId ??= await createArchive(run, archive.title)
      await run.options.client.updateItem(op.remoteId!, {parent_topic_id: archiveId, parent_topic_id_changed: true})
      run.writes++
      const moved = new Set(subtreeOf(remote, op.remoteId!))
      for (const [key, entry] of Object.entries(run.store.state.items))
        if (entry.id !== undefined && moved.has(entry.id)) run.store.setItem(key, undefined)
      await run.store.saveChanges()
      run.emit({type: 'done', op, remoteId: op.remoteId!})
    } catch (error) {
      run.emit({type: 'failed', op, error: messageOf(error)})
      return
    }
  }
}

/** Creates the archive topic at the root (it is never recorded in the state: no file names it). */
async function createArchive(run: RunState, title: string): Promise<string> {
  const created = await run.options.client.createItem({
    type: 'topic',
    title,
    parent_topic_id: run.context.remote.rootTopicId
  })
  run.writes++
  return created.id
}

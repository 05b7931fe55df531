/**
 * Pruning: deletes the remote items the plan selected (only with `--prune`,
 * only items of the tree under the root that kbsync created or matched,
 * children first). Runs after every
 * other step, and only when none of them failed.
 */
import {messageOf, type RunState} from './item-step.js'
import {twinDiffers} from './twins.js'
import type {PlanOp} from '../shared/types.js'

/** Deletes the planned orphans one by one, forgetting each in the state as it goes. */
export async function deleteOrphans(run: RunState, deletions: PlanOp[]): Promise<void> {
  const {state} = run.store
  for (const op of deletions) {
    // The plan only ever selects items of the tree under the root; this says so where the delete is sent.
    if (!Object.hasOwn(run.context.remote.items, op.remoteId!)) {
      run.emit({type: 'done', op, skipped: true, note: 'not pruned: not an item under the root topic'})
      continue
    }
    run.emit({type: 'start', op})
    try {
      const differs =
        op.twinOf === undefined ? undefined : await twinDiffers(run.options.client, op.remoteId!, op.twinOf)
      if (differs !== undefined) {
        run.emit({type: 'done', op, skipped: true, note: `not deleted: ${differs}`})
        continue
      }
      await run.options.client.deleteItem(op.remoteId!, {withChildren: false})
      run.writes++
      for (const [key, entry] of Object.entries(state.items))
        if (entry.id === op.remoteId) run.store.setItem(key, undefined)
      await run.store.saveChanges()
      run.emit({type: 'done', op, remoteId: op.remoteId!})
    } catch (error) {
      run.emit({type: 'failed', op, error: messageOf(error)})
      // Stop at the first failure: a topic whose child could not be deleted must not be tried next.
      return
    }
  }
}

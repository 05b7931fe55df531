/**
 * The last look before an overwrite: a body edited on the platform after
 * the plan read it is a conflict (its remote version written beside the
 * file), never overwritten.
 */
import type {LocalNode} from '../../local/index.js'
import {bodyEditedRemotely} from '../shared/compare.js'
import {writeConflictFile} from '../shared/conflicts.js'
import {holdsBody, toDetail} from '../shared/remote.js'
import type {Rendered} from '../shared/render.js'
import type {PlanOp} from '../shared/types.js'
import type {RunState} from './item-step.js'
import {UpdateListings} from './update-listings.js'

/**
 * `updated_at` has second resolution: an edit within the second of the
 * plan's baseline may keep it. A listing answers only for a baseline older
 * than this before the listing started (our clock; with a server clock far
 * behind ours, a web edit made within a second of our own last write may
 * pass, which no person can do).
 */
const SAME_SECOND_MS = 2000

/** Whether a recent listing of the item's topic shows it as the plan saw it (`update-listings.ts`): then no read. */
async function unmovedInListing(run: RunState, id: string, updatedAt: string | undefined): Promise<boolean> {
  const item = run.context.remote.items[id]
  if (updatedAt === undefined || !item) return false
  // A failed listing proves nothing: the item is read as before.
  const listed = await run.listings.updatedAt(item.parentId, id).catch(() => undefined)
  return listed?.updatedAt === updatedAt && Date.parse(updatedAt) + SAME_SECOND_MS <= listed.started
}

/** The listings of one push run: each topic listed when an overwrite first asks (a no-op push lists nothing). */
export function runListings(client: RunState['options']['client']): UpdateListings {
  return new UpdateListings((parentId) =>
    client.getChildren ? client.getChildren(parentId) : client.getTree(parentId)
  )
}

/**
 * Looks at an item right before its body is overwritten (only then: a no-op
 * push pays nothing): a web edit made after the plan read the remote is a
 * conflict, not an overwrite. A recent listing of its topic that shows the
 * `updated_at` the plan saw settles it; else the item is read again. Only
 * items with a baseline are checked, and `--force` skips it. Returns whether the item was found edited (it is then
 * left untouched, its remote version written beside the file, the baseline
 * kept so the next run reports it again).
 */
export async function editedSincePlan(
  run: RunState,
  node: LocalNode,
  op: PlanOp,
  render: () => Rendered
): Promise<boolean> {
  const baseline = op.baseline
  const id = op.remoteId
  if (
    run.options.force ||
    id === undefined ||
    !op.changes?.includes('body') ||
    !baseline ||
    baseline.remoteHash === undefined
  )
    return false
  if (baseline.version === undefined && baseline.updatedAt === undefined) return false
  if (await unmovedInListing(run, id, baseline.updatedAt)) return false
  const now = toDetail(await run.options.client.getItem(id))
  const moved = baseline.version !== undefined ? now.version !== baseline.version : now.updatedAt !== baseline.updatedAt
  // `updated_at` also moves on permission changes: only a different body is an edit (the same comparison as the plan's).
  // What this run is about to write is no edit either: a concurrent run of the same folder wrote it (with ids the plan did not know yet).
  const holdsOurs = () => {
    if (now.bodyHash === op.newHash) return true
    const ours = render()
    return holdsBody(now, ours.hash, () => ours.body)
  }
  if (!moved || !bodyEditedRemotely(now, baseline, holdsOurs)) return false
  run.context.remote.details[id] = now
  const conflict: PlanOp = {
    ...op,
    op: 'conflict',
    reason: 'edited on the platform after the plan read it; not overwritten'
  }
  const file = await writeConflictFile(run, conflict)
  run.written.push(file)
  run.lateConflicts++
  run.emit({type: 'conflict-file', op: conflict, file})
  return true
}

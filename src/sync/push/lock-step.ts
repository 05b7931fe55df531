/**
 * The lock of a push that did not know the publishing account when it
 * planned (the first push with `lock`): once a write's answer named the
 * account, every document's lock is planned and set as a declared
 * permission would be (read, compared, written only where it differs,
 * recorded in the state), after the documents' own writes.
 */
import {permissionsKey} from '../../local/index.js'
import {permissionsDiffer} from './plan-permissions.js'
import {writePermissions} from './permissions-step.js'
import {applyLock} from './lock.js'
import {messageOf, type RunState} from './item-step.js'
import type {PlanOp} from '../shared/types.js'

/** Locks the documents written or matched so far; nothing when no answer named the account. */
export async function lockAfterWrites(run: RunState): Promise<void> {
  const publisher = run.store.state.publisher
  if (!run.context.lockPending || publisher === undefined) return
  const {scan} = run.context
  applyLock(scan, publisher)
  for (const node of Object.values(scan.byPath)) {
    const id = run.ids.get(node.path)
    const wanted = node.permissions
    if (node.path === '' || id === undefined || !wanted || run.failedPaths.has(node.path)) continue
    const entry = run.store.state.items[node.path]
    if (entry?.permissionsKey === permissionsKey(wanted)) continue
    const op: PlanOp = {
      op: 'permissions',
      path: node.path,
      type: node.kind,
      remoteId: id,
      title: node.title,
      permissions: wanted,
      reason: 'lock: the publishing account as the only editor'
    }
    try {
      if (!permissionsDiffer(wanted, await run.options.client.getPermissions(id))) {
        if (entry) entry.permissionsKey = permissionsKey(wanted)
        run.store.touchItem(node.path)
        continue
      }
      run.emit({type: 'start', op})
      await writePermissions(run, node, op)
    } catch (error) {
      run.emit({type: 'failed', op, error: messageOf(error)})
    }
  }
  await run.store.saveChanges()
}

/** The permissions part of a document's plan: set them when the platform's differ from the declared ones. */
import type {LocalNode, LocalPermissions, StateEntry} from '../../local/index.js'
import {permissionsKey} from '../../local/index.js'
import type {Permissions} from '../../api/types.js'
import type {PlanRun, Where} from './plan-document.js'

/** Whether remote permissions differ from the declared ones. */
export function permissionsDiffer(want: LocalPermissions, have: Permissions | undefined): boolean {
  if (!have) return true
  const ids = (people: Array<{id: number}>) => [...new Set(people.map((p) => p.id))].sort((a, b) => a - b).join(',')
  if (want.inherit !== undefined && want.inherit !== have.inherit) return true
  return ids(have.readers) !== want.readers.join(',') || ids(have.editors) !== want.editors.join(',')
}

/** Declared permissions that the state does not know as set: an op when the platform's differ, else recorded as known. */
export function planPermissions(
  run: PlanRun,
  node: LocalNode,
  id: string,
  entry: StateEntry | undefined,
  entryNow: StateEntry,
  where: Where
): void {
  if (!node.permissions) return
  const key = permissionsKey(node.permissions)
  if (entry?.permissionsKey === key) return
  if (permissionsDiffer(node.permissions, run.remote.permissions[id])) {
    run.ops.push({
      op: 'permissions',
      ...where,
      remoteId: id,
      permissions: node.permissions,
      reason: 'permissions differ from the platform'
    })
  } else {
    entryNow.permissionsKey = key
  }
}

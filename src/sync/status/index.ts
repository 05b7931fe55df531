/**
 * `status`: what changed on each side since the last sync, from the push
 * plan (computed even when the folder has errors, so that a broken link
 * hides no web edit) and, in a folder that manages permissions, from every
 * item's permissions read now. Writes nothing.
 */
import {planPush, type PlanInputs, type PlanPushOptions} from '../push/prepare.js'
import {managesPermissions, permissionsSetting, type PermissionsSetting} from '../shared/permissions-managed.js'
import type {PushPlan} from '../shared/types.js'
import {readPermissionChanges, type PermissionChange} from './permissions.js'

export type {PermissionChange} from './permissions.js'

/** Options of `planStatus`: those of a push plan, and whether the folder manages permissions. */
export interface StatusOptions extends PlanPushOptions {
  /** The config's `permissions` switch (`auto`, the default: as the folder declares). */
  permissions?: PermissionsSetting | boolean
}

/** What `status` reports: the push plan (maybe `blocked`), and the permissions changed on the platform. */
export interface StatusPlan {
  plan: PushPlan
  /** Permission changes, when the folder manages permissions (else empty). */
  permissions: PermissionChange[]
  /** Whether the permissions were read (the folder manages them, and they are open to this account). */
  permissionsRead: boolean
}

/** Paths of the documents whose file is what the last sync saw. */
function unchangedSources({scan, state}: PlanInputs): Set<string> {
  const paths = new Set<string>()
  for (const node of Object.values(scan.byPath)) {
    const seen = state.items[node.path]?.sourceHash
    if (seen !== undefined && node.sourceHash === seen) paths.add(node.path)
  }
  return paths
}

/**
 * A file with an error that nobody edited since the last sync renders
 * differently only because of the error (a broken link left as a link under
 * `--broken-links=error`): no local edit, and not listed as one.
 */
function dropUnrenderable(plan: PushPlan, unchanged: Set<string>): void {
  if (!plan.blocked) return
  const faulty = new Set(plan.diagnostics.filter((d) => d.severity === 'error' && d.file).map((d) => d.file))
  plan.ops = plan.ops.filter((op) => !(op.op === 'update' && unchanged.has(op.path) && faulty.has(op.path)))
}

/** Computes the status of `options.dir` (reads only). */
export async function planStatus(options: StatusOptions): Promise<StatusPlan> {
  let permissions: PermissionChange[] = []
  let permissionsRead = false
  let unreadable: string | undefined
  let unchanged = new Set<string>()
  const inspect = async (seen: PlanInputs) => {
    unchanged = unchangedSources(seen)
    if (!managesPermissions(seen.scan, permissionsSetting(options.permissions))) return
    const reading = await readPermissionChanges(seen, options.client, options.concurrency ?? 8)
    permissions = reading.changes
    unreadable = reading.unreadable
    permissionsRead = unreadable === undefined
  }
  const plan = await planPush({...options, despiteErrors: true, inspect})
  dropUnrenderable(plan, unchanged)
  if (unreadable !== undefined)
    plan.diagnostics.push({
      severity: 'warning',
      message: `Permissions are closed to this account (${unreadable}); changes to them on the platform are not shown`,
      rule: 'permissions-unreadable'
    })
  return {plan, permissions, permissionsRead}
}

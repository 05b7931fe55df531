/**
 * `pull`: read the remote tree, the state and the folder; read the full
 * records the plan needs and the permissions of the items that moved since
 * they were last seen (a no-op pull reads only the tree); plan; apply.
 */
import {mkdir} from 'node:fs/promises'
import {checkWritesInside, loadState, mapLimit, outlineOrigin, scanFolder, type Diagnostic, type ScanResult, type SyncState} from '../../local/index.js'
import {ApiError} from '../../api/index.js'
import {checkOptions} from '../shared/options.js'
import {readRemote, toDetail, type RemoteSnapshot} from '../shared/remote.js'
import {applyPull, plannedWrites} from './apply.js'
import {itemsToRead, permissionsChanged, permissionsToRead, planPull, type PullPlan} from './plan.js'
import type {SyncClient} from '../shared/types.js'
import type {PullClient, PullOptions, PullResult} from './types.js'

/** Everything `applyPull` needs besides the plan. */
export interface PullContext {
  scan: ScanResult
  state: SyncState
  remote: RemoteSnapshot
  diagnostics: Diagnostic[]
}

/**
 * Plans a pull of `options.dir` (reads the remote, writes nothing but the
 * folder itself when missing); throws a `WriteOutsideError` when a planned
 * write would go through a link that leaves the folder.
 */
export async function planPullRun(options: PullOptions): Promise<{plan: PullPlan; context: PullContext}> {
  checkOptions(options)
  const rootTopicId = options.rootTopicId ?? null
  await mkdir(options.dir, {recursive: true})
  const scan = await scanFolder(options.dir, {skipBodies: true, ...(options.ignore ? {ignore: options.ignore} : {})})
  const outline = outlineOrigin(scan.byPath)
  if (outline) {
    // Pull writes a folder and `_index.md` per topic: it would move the chapters an outline placed into folders of their titles.
    throw new Error(`${outline.file} shapes this folder, and pull writes the plain folder layout (it would move its chapters into folders): nothing was written. Pull into an empty folder instead, and bring edits over by hand`)
  }
  const {state, warning} = await loadState(scan.dir, rootTopicId)
  const diagnostics: Diagnostic[] = warning ? [{severity: 'warning', message: warning, rule: 'state-ignored'}] : []
  const remote = await readRemote(options.client as Pick<SyncClient, 'getTree'> as SyncClient, rootTopicId)
  const limit = options.concurrency ?? 8
  await readRecords(options.client, remote, itemsToRead(remote, state, scan), limit)
  // Permissions are read where `updated_at` moved past the one they were last seen at (a push in between may have
  // recorded the new `updated_at`, not the permissions): the record of each whose permissions changed is read too.
  await readPermissions(options.client, remote, permissionsToRead(remote, state), limit, diagnostics)
  await readRecords(options.client, remote, permissionsChanged(remote, state), limit)
  let plan = planPull(remote, state, scan)
  if (state.linksPending || plan.ops.some((op) => op.from !== undefined && op.op !== 'delete' && op.op !== 'conflict')) {
    // A document moves (or moved in a pull that stopped early): relative links to it change in other files, so every record is needed.
    await readRecords(options.client, remote, Object.keys(remote.items), limit)
    plan = planPull(remote, state, scan, {refreshAll: true, ...(state.linksPending ? {refreshEvery: true} : {})})
  }
  // Plan first, then write: a link out of the folder where the pull would write refuses it whole, before any write.
  checkWritesInside(scan.dir, plannedWrites(plan, remote))
  plan.diagnostics.push(...diagnostics)
  return {plan, context: {scan, state, remote, diagnostics}}
}

/** Pulls the knowledge base (or the topic `rootTopicId`) into `options.dir`. */
export async function pull(options: PullOptions): Promise<PullResult> {
  const {plan, context} = await planPullRun(options)
  options.onEvent?.({type: 'plan', plan})
  if (options.dryRun) return {plan, status: plan.summary.conflict > 0 ? 'conflict' : 'ok', written: [], conflicts: [], failed: [], diagnostics: plan.diagnostics}
  return applyPull(plan, context, options)
}

/** Whether a permissions read was refused to this account (the platform may answer non-administrators so). */
function isAccessDenied(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false
  return error.status === 403 || /access_denied/.test(error.errorCode ?? '')
}

/** Reads the full record of each of `ids` not read yet. */
async function readRecords(client: PullClient, remote: RemoteSnapshot, ids: string[], limit: number): Promise<void> {
  await mapLimit(
    ids.filter((id) => !remote.details[id]),
    limit,
    async (id) => void (remote.details[id] = toDetail(await client.getItem(id)))
  )
}

/** Reads the permissions of `ids`; closed to this account, they are left unread with one warning. */
async function readPermissions(client: PullClient, remote: RemoteSnapshot, ids: string[], limit: number, diagnostics: Diagnostic[]): Promise<void> {
  let denied = false
  await mapLimit(ids, limit, async (id) => {
    if (denied) return
    try {
      remote.permissions[id] = await client.getPermissions(id)
    } catch (error) {
      // Any other failure fails the pull before it writes anything: skipping it would lose the permissions for good.
      if (!isAccessDenied(error)) throw error
      // Permissions may be closed to non-administrators: pull the content anyway.
      if (!denied) {
        denied = true
        diagnostics.push({
          severity: 'warning',
          message: `Permissions are closed to this account (${(error as Error).message}); the items whose permissions could not be read get no permission files`,
          rule: 'permissions-unreadable'
        })
      }
    }
  })
}

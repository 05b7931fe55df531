/**
 * `planPush`: scan, read the state and the remote, match, read the few full
 * records the plan needs, and compute the plan. Writes nothing.
 */
import {announcePushSize} from './push-size.js'
import {checkpoint} from '../shared/stopped.js'
import {
  BodyCache,
  FrontMatterCache,
  hasBody,
  loadState,
  mapLimit,
  ownStrings,
  permissionsKey,
  releaseBody,
  scanFolder,
  type Diagnostic,
  type KeepRender,
  type ScanResult,
  type SyncState
} from '../../local/index.js'
import {matchItems, type Matching} from '../shared/match.js'
import {computePlan} from './plan.js'
import {scanTemplates} from './scan-templates.js'
import {orphanModeOf} from './orphans.js'
import {defaultArchiveTopic, hideArchive, type ArchiveTopic} from '../shared/archive.js'
import {noticeOf} from '../shared/notice.js'
import {applyLock} from './lock.js'
import {prepareDiagrams} from '../../diagrams/index.js'
import {readRemote, toDetail, type RemoteSnapshot} from '../shared/remote.js'
import {checkOptions, stateTargetOf} from '../shared/options.js'
import {foreignUrlDiagnostics, urlGuard} from '../shared/foreign-urls.js'
import {setAsideForeignIds} from '../shared/foreign-ids.js'
import {claimSimilar, renameCandidates} from '../shared/similar.js'
import type {PushOptions, PushPlan} from '../shared/types.js'
import {confineState} from '../../trust/index.js'

/** `PushOptions`, and how the folder is scanned. */
export interface PlanPushOptions extends PushOptions {
  /** Scans `dir` (watch's incremental rescan, `createRescanner`); default: `scanFolder` with the body cache. */
  scan?: () => Promise<ScanResult>
  /**
   * `status`: plan even when the folder has errors (the plan stays
   * `blocked`): what changed on either side is still worth telling, and a
   * web edit must not hide behind a broken link.
   */
  despiteErrors?: boolean
  /** `status`: called with what the plan was computed from, before the plan is returned (reads only). */
  inspect?: (seen: PlanInputs) => Promise<void>
  /**
   * The plan is to be applied: the scan keeps the render of each body it
   * parses for its write (`scan-templates.ts`), which then parses nothing.
   */
  forApply?: boolean
}

/** What a push plan is computed from. */
export interface PlanInputs {
  scan: ScanResult
  state: SyncState
  remote: RemoteSnapshot
  matching: Matching
}

/** Computes the plan of pushing `options.dir` (reads only). */
export async function planPush(options: PlanPushOptions): Promise<PushPlan> {
  checkOptions(options)
  const rootTopicId = options.rootTopicId ?? null
  // Named before any request: a login may replace the client's API URL with the one its answer gives.
  const target = stateTargetOf(options)
  // The structure read needs nothing from the folder: it runs while the folder is scanned. It is a read;
  // on invalid input its answer (or its failure) is dropped, and the errors of the input are the answer.
  const remoteRead = readRemote(options.client, rootTopicId)
  remoteRead.catch(() => undefined)
  const scan = options.scan
    ? await options.scan()
    : await scanFolder(options.dir, {
        cache: await BodyCache.load(options.dir),
        frontMatter: await FrontMatterCache.load(options.dir),
        ...(options.ignore ? {ignore: options.ignore} : {}),
        ...(options.links ? {links: options.links} : {}),
        ...(options.locales ? {locales: options.locales} : {}),
        ...(options.signal ? {onBodyRead: () => checkpoint(options.signal)} : {}),
        ...(options.forApply ? {keepRender: await keepRenderOf(options, rootTopicId), onBodies: announcePushSize} : {})
      })
  const {state, warning} = await loadState(scan.dir, rootTopicId, target)
  const stateWarning: Diagnostic[] = warning ? [{severity: 'warning', message: warning, rule: 'state-ignored'}] : []
  if (!options.despiteErrors && scan.diagnostics.some((d) => d.severity === 'error')) {
    // Invalid input: nothing to plan; the errors are the answer.
    const remote: RemoteSnapshot = {rootTopicId, items: {}, top: [], details: {}, permissions: {}}
    const matching: Matching = {ids: new Map(), how: new Map(), remoteGone: new Set(), diagnostics: []}
    const plan = computePlan(scan, remote, state, matching, options)
    plan.ops = []
    plan.orphans = []
    plan.summary = Object.fromEntries(Object.keys(plan.summary).map((k) => [k, 0])) as PushPlan['summary']
    plan.diagnostics.push(...stateWarning)
    return withTarget(plan, state)
  }
  const remote = await remoteRead
  // The archive and what it holds are the platform's: neither matched, nor orphans (a second run is a no-op).
  const archive = archiveOf(options, remote, state)
  // Ids are believed only under the root just read: a state entry naming another team's item is dropped, with a warning.
  const outside = confineState(state, remote)
  if (outside) stateWarning.push(outside)
  // Ids of another knowledge base (a folder pulled from it): matched as files without one, said in one counted line.
  scan.diagnostics.push(...setAsideForeignIds(scan, state, remote))
  // The lock is a declaration like _permissions.yml: given before the reads, it is read, planned and recorded as one.
  const lockPending = options.lock === true && state.publisher === undefined
  if (options.lock && state.publisher !== undefined) scan.diagnostics.push(...applyLock(scan, state.publisher))
  if (lockPending) scan.diagnostics.push(lockPendingNote)
  const matching = matchItems(scan, remote, state)
  await matchEditedRenames(options, scan, remote, state, matching)
  await readDetails(options, scan.byPath, remote, state, matching)
  recoverAssetUrls(state, remote)
  adoptAttachedFiles(scan, state, remote, matching)
  // Mermaid diagrams with no uploaded file get their SVG now (a browser only when one must be rendered).
  scan.diagnostics.push(...(await prepareDiagrams(scan, state, options.diagrams)))
  const label = state.target?.label ?? 'this knowledge base'
  scan.diagnostics.push(...foreignUrlDiagnostics(scan, urlGuard(state), label))
  const notice = await noticeOf(scan.dir, options.notice, options.links?.repoUrl)
  const plan = computePlan(scan, remote, state, matching, options, {
    ...(archive ? {archive} : {}),
    ...(notice ? {notice} : {}),
    ...(lockPending ? {lockPending} : {})
  })
  plan.diagnostics.push(...stateWarning)
  letGoOfText(plan, scan)
  await options.inspect?.({scan, state, remote, matching})
  return withTarget(plan, state)
}

/** The scan's `keepRender` of a push of `options`: the templates' settings are the configuration's. */
async function keepRenderOf(options: PlanPushOptions, rootTopicId: string | null): Promise<KeepRender> {
  const notice = await noticeOf(options.dir, options.notice, options.links?.repoUrl)
  return scanTemplates({rootTopicId, ...(notice ? {notice} : {})})
}

/**
 * Lets go of the text the plan's scan no longer needs (its own: `computePlan`
 * stays pure, a scan can be planned again until here): the raw file text of
 * every article (the bases stored at the end of the run read the file again,
 * checked against its hash), the body of every document the plan does not
 * write, and the body of each it writes when the file can give it again
 * (`releaseBody`: the write reads it back, checked against its hash). What
 * stays per document is what identity and change detection need: paths,
 * hashes, title, references; its strings its own, not slices of the file's
 * text (`ownStrings`), which they would keep alive.
 */
function letGoOfText(plan: PushPlan, scan: ScanResult): void {
  const writes = new Set<string>()
  for (const op of plan.ops) if (op.op === 'create' || op.changes?.includes('body')) writes.add(op.path)
  for (const node of Object.values(scan.byPath)) {
    if (node.kind === 'article') delete node.source
    ownStrings(node)
    if (writes.has(node.path)) {
      releaseBody(node)
      continue
    }
    delete node.body
    delete node.bodyLineOf
  }
  // The ops name each document by the node's title: the string of its own now.
  for (const op of plan.ops) {
    const node = Object.hasOwn(scan.byPath, op.path) ? scan.byPath[op.path] : undefined
    if (node && op.title === node.title) op.title = node.title
  }
}

const lockPendingNote: Diagnostic = {
  severity: 'info',
  message:
    "lock: the publishing account is not known yet (the platform's answer to a write names it): this push locks the items once it has written one",
  rule: 'lock-pending'
}

/** With `onOrphan: archive`: the archive topic, taken out of `remote`. */
function archiveOf(options: PushOptions, remote: RemoteSnapshot, state: SyncState): ArchiveTopic | undefined {
  if (orphanModeOf(options) !== 'archive') return undefined
  return hideArchive(remote, state, options.archiveTopic ?? defaultArchiveTopic)
}

/** `plan` naming the knowledge base its state describes (`status`, `plan` and `plan --json` show it). */
function withTarget(plan: PushPlan, state: SyncState): PushPlan {
  if (state.target) plan.target = {key: state.target.key, label: state.target.label, known: state.known === true}
  return plan
}

/** Reads the items that new files may be renamed and edited copies of, and matches those alike enough (`similar.ts`). */
async function matchEditedRenames(
  options: PushOptions,
  scan: ScanResult,
  remote: RemoteSnapshot,
  state: SyncState,
  matching: Matching
): Promise<void> {
  const candidates = renameCandidates(scan, remote, state, matching)
  if (candidates.length === 0) return
  await mapLimit([...new Set(candidates.map((candidate) => candidate.id))], options.concurrency ?? 8, async (id) => {
    remote.details[id] ??= toDetail(await options.client.getItem(id))
  })
  claimSimilar(candidates, remote.details, scan, remote, state, matching)
}

/**
 * Reads full records only where the structure cannot answer: items with a
 * body and no baseline, items whose `updated_at` moved since the last sync
 * (a web edit, or a crash after our own write), items whose uploaded file's
 * URL a crash kept from the state; and permissions that changed locally.
 */
async function readDetails(
  options: PushOptions,
  byPath: Record<string, import('../../local/index.js').LocalNode>,
  remote: RemoteSnapshot,
  state: SyncState,
  matching: Matching
): Promise<void> {
  const entryOf = new Map<string, SyncState['items'][string]>()
  for (const entry of Object.values(state.items)) if (entry.id) entryOf.set(entry.id, entry)
  const urlless = new Set(
    Object.values(state.assets)
      .filter((a) => !a.url && a.usedBy)
      .map((a) => a.usedBy!)
  )
  const items: string[] = []
  const permissions: string[] = []
  for (const [path, id] of matching.ids) {
    const node = byPath[path]!
    const entry = entryOf.get(id)
    const item = remote.items[id]!
    const moved = item.updatedAt === undefined || item.updatedAt !== entry?.remoteUpdatedAt
    if ((hasBody(node) && (entry?.remoteHash === undefined || moved)) || urlless.has(path)) items.push(id)
    if (node.permissions && entry?.permissionsKey !== permissionsKey(node.permissions)) permissions.push(id)
  }
  const limit = options.concurrency ?? 8
  await mapLimit(items, limit, async (id) => {
    remote.details[id] = toDetail(await options.client.getItem(id))
  })
  await mapLimit(permissions, limit, async (id) => {
    remote.permissions[id] = await options.client.getPermissions(id)
  })
}

/** Fills the URL of uploads whose guid a fetched record lists (a crash kept it from the state). */
function recoverAssetUrls(state: SyncState, remote: RemoteSnapshot): void {
  const byGuid = new Map<string, {url: string; id: string}>()
  for (const [id, detail] of Object.entries(remote.details))
    for (const [guid, url] of Object.entries(detail.attachments)) byGuid.set(guid, {url, id})
  for (const asset of Object.values(state.assets)) {
    const found = asset.url ? undefined : byGuid.get(asset.guid)
    if (found) {
      asset.url = found.url
      asset.articleId = found.id
    }
  }
}

/**
 * Without a state entry for a file, an article that already lists an
 * attachment of the same name and size holds it: reference its URL rather
 * than uploading the file again.
 */
function adoptAttachedFiles(scan: ScanResult, state: SyncState, remote: RemoteSnapshot, matching: Matching): void {
  for (const [path, id] of matching.ids) {
    const detail = remote.details[id]
    if (!detail) continue
    for (const ref of scan.byPath[path]!.refs.assets) {
      if (state.assets[ref.sha256]?.url) continue
      const asset = scan.assets[ref.sha256]!
      const name = asset.path.slice(asset.path.lastIndexOf('/') + 1)
      const file = detail.files.find((f) => f.name === name && f.size === asset.size)
      if (file) state.assets[ref.sha256] = {guid: file.guid, url: file.url, articleId: id, usedBy: path}
    }
  }
}

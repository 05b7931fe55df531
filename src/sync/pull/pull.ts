/**
 * `pull`: read the remote tree, the state and the folder; read, in one
 * bounded pool, the full records the plan needs, the permissions of the
 * items that moved since they were last seen, and the files new bodies use
 * (into a waiting area; a no-op pull reads only the tree); plan; check
 * every planned write; apply.
 */
import {mkdir} from 'node:fs/promises'
import {
  checkWritesInside,
  FrontMatterCache,
  loadState,
  scanFolder,
  type Diagnostic,
  type ScanResult,
  type SyncState
} from '../../local/index.js'
import {checkOptions, stateTargetOf} from '../shared/options.js'
import {confineState} from '../../trust/index.js'
import {readRemote, type RemoteSnapshot} from '../shared/remote.js'
import {hideArchive} from '../shared/archive.js'
import {computeLayout} from '../shared/document-layout.js'
import {setAsideForeignIds} from '../shared/foreign-ids.js'
import {diagramSources} from '../../diagrams/index.js'
import {conversionPool} from '../../workers/index.js'
import {applyPull} from './apply.js'
import {plannedWrites} from './planned-writes.js'
import {itemsToRead, planPull, type PullPlan} from './plan.js'
import {managesPermissions, permissionsSetting} from '../shared/permissions-managed.js'
import {createPrefetch, noPrefetch, type Prefetch} from './prefetch.js'
import {createReader} from './reads.js'
import {createSpeculation, type Speculation} from './speculation.js'
import {likelyPlace, newFilesGetIds} from './body-place.js'
import type {BodyFacts} from './body-task.js'
import type {SyncClient} from '../shared/types.js'
import type {PullOptions, PullResult} from './types.js'
import {markBrokenCopies} from './broken-copies.js'
import {navigationBases} from './navigation-apply.js'
import {planNavigation} from './navigation-plan.js'
import {keptFolderFiles} from './kept-folders.js'
import {readableIds} from './refused-bodies.js'
import {recordedUrls, servingClient} from './file-keys.js'
import {stateAssets, type StateAssets} from './state-assets.js'

/** Everything `applyPull` needs besides the plan. */
export interface PullContext {
  scan: ScanResult
  state: SyncState
  remote: RemoteSnapshot
  diagnostics: Diagnostic[]
  /** What the body of each record read holds (file URLs, diagram blocks, trouble), by id (the others are parsed when needed). */
  facts: Map<string, BodyFacts>
  /** Files downloaded while the records were read, waiting to be moved into place. */
  prefetch: Prefetch
  /** Bodies converted while the records were read, taken where the plan confirms what they assumed. */
  speculation: Speculation
  /** The files the state recorded before the pull, by URL and by key. */
  assets: StateAssets
}

/** The scan of the pull's folder (made when missing). */
async function scanForPull(options: PullOptions): Promise<ScanResult> {
  await mkdir(options.dir, {recursive: true})
  // A dry run writes nothing, not even the cache: it parses every front matter block.
  const frontMatter = options.dryRun ? {} : {frontMatter: await FrontMatterCache.load(options.dir)}
  return scanFolder(options.dir, {
    skipBodies: true,
    ...frontMatter,
    ...(options.ignore ? {ignore: options.ignore} : {})
  })
}

/**
 * Plans a pull of `options.dir` (reads the remote, writes nothing but the
 * folder itself when missing, and, unless `dryRun`, files downloaded early
 * into `.kbsync/downloads/`); throws a `WriteOutsideError` when a planned
 * write would go through a link that leaves the folder.
 */
export async function planPullRun(options: PullOptions): Promise<{plan: PullPlan; context: PullContext}> {
  checkOptions(options)
  const rootTopicId = options.rootTopicId ?? null
  // Named before any request: a login may replace the client's API URL with the one its answer gives.
  const target = stateTargetOf(options)
  const scan = await scanForPull(options)
  const {state, warning} = await loadState(scan.dir, rootTopicId, target)
  const diagnostics: Diagnostic[] = warning ? [{severity: 'warning', message: warning, rule: 'state-ignored'}] : []
  // Only the structure is read through it: a pull client has no write methods.
  const remote = await readRemote(options.client as Pick<SyncClient, 'getTree'> as SyncClient, rootTopicId)
  // The archive is the platform's: what push moved there is no file to write (nor a deletion to mirror).
  if (options.archiveTopic !== undefined) hideArchive(remote, state, options.archiveTopic)
  // Ids are believed only under the root just read: a state entry naming another team's item is dropped, with a warning.
  const outside = confineState(state, remote)
  if (outside) diagnostics.push(outside)
  diagnostics.push(...setAsideForeignIds(scan, state, remote))
  // A copy an older kbsync saved wrong (a proxy's page for an image): its article is read again and the file fetched anew.
  await markBrokenCopies(scan.dir, state)
  // Files by their id: records read with the state's URLs, downloads at the ones the server gives now (`file-keys.ts`).
  const assets = stateAssets(state)
  const fileUrls = recordedUrls(assets)
  const client = servingClient(options.client, fileUrls)
  const prefetch = options.dryRun ? noPrefetch(client) : createPrefetch(scan.dir, assets, client)
  prefetch.clear()
  const urls = options.articleUrl !== undefined ? {articleUrl: options.articleUrl} : {}
  // The layout does not depend on the records read: one for the speculation, the reads and both plans.
  const layout = computeLayout(remote, state, scan)
  const placing = {remote, state, scan, layout, newIds: newFilesGetIds(scan)}
  const speculation = createSpeculation({
    remote,
    layout,
    urls,
    diagrams: diagramSources(scan.dir, state),
    pool: conversionPool(),
    early: !options.dryRun,
    placeOf: (id) => likelyPlace(placing, id)
  })
  const limit = options.concurrency ?? 8
  const reader = createReader({client, remote, state, limit, prefetch, speculation, diagnostics, fileUrls})
  try {
    // A folder that manages permissions has every item's read (a permissions change need not move `updated_at`);
    // one that does not reads none and writes none (`permissions-managed.ts`).
    const permissions = managesPermissions(scan, permissionsSetting(options.permissions))
      ? Object.keys(remote.items)
      : []
    await reader.read(itemsToRead(remote, state, scan, layout), permissions)
    let plan = planPull(remote, state, scan, {}, layout)
    if (state.linksPending || plan.ops.some((op) => op.from !== undefined && op.op !== 'conflict')) {
      // A document moves or goes (or moved in a pull that stopped early): relative links to it change in other files,
      // so every record is needed.
      await reader.read(readableIds(state, remote), [])
      const refresh = {refreshAll: true, ...(state.linksPending ? {refreshEvery: true} : {})}
      plan = planPull(remote, state, scan, refresh, layout)
    }
    const navigation = planNavigation(plan, {
      scan,
      remote,
      current: layout.current,
      baseOf: await navigationBases(scan)
    })
    if (navigation.files.length > 0) plan.navigation = navigation.files
    const kept = keptFolderFiles(plan, {scan, remote, current: layout.current})
    if (kept.length > 0) plan.keptFolders = kept
    plan.diagnostics.push(...navigation.diagnostics)
    // Plan first, then write: a link out of the folder where the pull would write refuses it whole, before any write.
    checkWritesInside(scan.dir, plannedWrites(plan, remote))
    plan.diagnostics.push(...diagnostics)
    return {plan, context: {scan, state, remote, diagnostics, facts: reader.facts, prefetch, speculation, assets}}
  } catch (error) {
    prefetch.clear()
    throw error
  } finally {
    speculation.release()
  }
}

/** Pulls the knowledge base (or the topic `rootTopicId`) into `options.dir`. */
export async function pull(options: PullOptions): Promise<PullResult> {
  const {plan, context} = await planPullRun(options)
  options.onEvent?.({type: 'plan', plan})
  if (options.dryRun)
    return {
      plan,
      status: plan.summary.conflict > 0 ? 'conflict' : 'ok',
      written: [],
      conflicts: [],
      failed: [],
      diagnostics: plan.diagnostics
    }
  return applyPull(plan, context, options)
}

/**
 * The files pulled bodies use: planned beside the first document listing
 * each (`planAssets`), then put on disk at the run's concurrency: moved
 * from the early downloads of `prefetch.ts` where there is one, else
 * downloaded now. A file that cannot be had keeps its URL in the body, with
 * a `download-failed` warning, and the next pull tries again.
 */
import type {BodyFacts} from './body-task.js'
import {asLocalWriteError, isMachineWriteError, LocalWriteError, mapLimit, removeInside} from '../../local/index.js'
import {ApiError, shownUrl} from '../../api/index.js'
import {fetchAsset, planAssets, type AssetPlan, type Download} from './assets.js'
import {diagramSourceLookup} from '../../diagrams/index.js'
import type {PullOp} from './plan.js'
import type {ApplyRun, PulledFiles} from './run.js'

/** The files of the documents `ops` (what their bodies hold in `facts`), planned; none on disk yet. */
export function plannedFiles(
  run: Pick<ApplyRun, 'context'>,
  ops: readonly PullOp[],
  facts: Map<string, BodyFacts>
): PulledFiles {
  const {remote} = run.context
  const listed = ops
    .filter((op) => op.op !== 'conflict')
    .map((op) => {
      const {files} = remote.details[op.id]!
      return {id: op.id, path: op.path, file: op.file, urls: facts.get(op.id)!.fileUrls, files}
    })
  // A Mermaid diagram this folder published comes back as its block (`localize.ts`): its image is not downloaded.
  const diagramOf = diagramSourceLookup(run.context.scan.dir, run.context.state)
  const assets = planAssets(listed, (url) => diagramOf(url) !== undefined)
  return {assets, local: new Map(), downloadedNow: new Set(), deferred: new Map()}
}

/** Puts one planned file on disk (or defers one `held` names: its URL's content) and notes the outcome in `run.files`. */
async function fetchOne(run: ApplyRun, asset: AssetPlan, held?: ReadonlyMap<string, string>): Promise<void> {
  const {dir, files} = run
  try {
    const download: Download = (url, destPath, expected) => run.context.prefetch.download(url, destPath, expected)
    const defer = held && ((planned: AssetPlan) => held.has(planned.url))
    const outcome = await fetchAsset(dir, asset, run.context.state, download, defer)
    if (outcome.deferred) {
      files.deferred.set(asset.url, {asset, sha256: held!.get(asset.url)!})
      return
    }
    if (outcome.downloaded) {
      run.result.written.push(asset.path)
      run.emit({type: 'download', url: asset.url, path: asset.path})
    }
    if (outcome.local) {
      files.local.set(asset.url, asset.path)
      if (outcome.downloaded) files.downloadedNow.add(asset.url)
    } else if (outcome.downloaded) {
      // Another URL holds the same content: the body keeps this URL.
      removeInside(dir, asset.path)
    }
  } catch (error) {
    // A full disk is not a download's failure: the pull stops, naming the file (`local-fault.ts`).
    // (A write of the download's stream that failed comes back as the request's failure: its cause tells.)
    const cause = error instanceof ApiError ? error.cause : error
    if (error instanceof LocalWriteError || isMachineWriteError(cause)) throw asLocalWriteError(cause, dir, asset.path)
    const message = `Could not download ${shownUrl(asset.url)}: ${error instanceof Error ? error.message : String(error)}; the body keeps the URL`
    run.result.diagnostics.push({severity: 'warning', file: asset.path, message, rule: 'download-failed'})
    // A transfer that stayed wrong through the retries (a page or a cut body in place of the file, a connection that kept
    // dropping) fails the run, naming the file: exit 1, nothing saved, and the next pull fetches it again (`missingFiles`).
    // A download refused by policy or answered 4xx stays a warning.
    const owner = run.plan.ops.find((op) => op.id === asset.ownerId)
    if (owner && error instanceof ApiError && error.retryable)
      run.fail(owner, new Error(`${asset.path}: ${error.message}; the next pull fetches it again`))
  }
}

/**
 * Puts every planned file of the run on disk (`run.files`), but those the
 * state already holds that have no copy at their planned place: a web edit
 * of an article showing the author's own images names them where they are
 * (`own-copies.ts`), and fetches only a file its file does not hold.
 */
export async function downloadFiles(run: ApplyRun): Promise<void> {
  const held = run.context.assets.shaByUrl()
  await mapLimit([...run.files.assets.values()], run.options.concurrency ?? 8, (asset) => fetchOne(run, asset, held))
}

/** Fetches the deferred files of `urls` now (their copies where `planAssets` put them). */
export async function fetchDeferred(run: ApplyRun, urls: readonly string[]): Promise<void> {
  const wanted: AssetPlan[] = []
  for (const url of urls) {
    const deferred = run.files.deferred.get(url)
    if (deferred === undefined) continue
    run.files.deferred.delete(url)
    wanted.push(deferred.asset)
  }
  await mapLimit(wanted, run.options.concurrency ?? 8, (asset) => fetchOne(run, asset))
}

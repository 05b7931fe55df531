/**
 * Adoption: a document found in the folder that the state does not know
 * (matched by title, or pinned by `kb_id` and never synced) is kept as the
 * writer wrote it and recorded as synced when it already says what the
 * platform holds (`in-sync.ts`). The copies this pull downloaded for
 * documents kept so are removed again: those use their own files.
 */
import path from 'node:path'
import {removeInside, scanFolder, type LocalPermissions, type ScanResult} from '../../local/index.js'
import {planRenderContext} from '../shared/render-context.js'
import {renderBody, type RenderContext} from '../shared/render.js'
import type {RemoteDetail, RemoteItem} from '../shared/remote.js'
import {removeIfEmpty} from './empty-folders.js'
import {alreadyInSync} from './in-sync.js'
import type {PullOp} from './plan.js'
import {recordPulled} from './state-book.js'
import type {ApplyRun} from './run.js'

/** What adoption needs: the folder scanned with bodies (after the moves), and push's render context over it. */
export interface Adoption {
  scan: ScanResult
  render: RenderContext
  /** Ids of the documents adopted. */
  adopted: Set<string>
}

/** Scans the folder with bodies when some document may be adopted (the plan's scan skipped them). */
export async function prepareAdoption(run: ApplyRun): Promise<Adoption> {
  const {plan, context, options} = run
  const adoptable = plan.ops.some((op) => op.unverified && op.from === undefined)
  const scan = adoptable ? await scanFolder(run.dir, {ignore: options.ignore ?? []}) : context.scan
  const render = planRenderContext(
    scan,
    context.remote,
    new Map(Object.entries(plan.paths).map(([id, at]) => [at, id])),
    context.state
  )
  return {scan, render, adopted: new Set()}
}

/**
 * Adopts the document of `op` when its file already says what the
 * platform holds: records it as synced and returns true; else false.
 */
export async function adoptIfInSync(
  run: ApplyRun,
  adoption: Adoption,
  op: PullOp,
  declared: LocalPermissions | undefined
): Promise<boolean> {
  const item: RemoteItem = run.context.remote.items[op.id]!
  const detail: RemoteDetail = run.context.remote.details[op.id]!
  // Only where nothing moves: the scan's links name documents where they are before the pull.
  const found = adoption.scan.byPath[op.path]
  if (
    !op.unverified ||
    op.from !== undefined ||
    !found ||
    !alreadyInSync(found, item, detail, declared, adoption.render)
  )
    return false
  if (found.body !== undefined) run.canonical.set(op.id, renderBody(found, adoption.render).hash)
  recordPulled(run, op, item, detail, declared, found.sourceHash ? {sourceHash: found.sourceHash} : {})
  adoption.adopted.add(op.id)
  await run.store.saveChanges()
  run.recorded = true
  run.emit({type: 'done', op, changed: false})
  return true
}

/**
 * Removes the copies downloaded now for documents that keep their own
 * files, where no written document uses them: adopted documents, and
 * documents merged into their files (the blocks the platform did not change
 * still name the author's images; a copy is kept only where the merged text
 * names it).
 */
export function dropAdoptedDownloads(run: ApplyRun, adoption: Adoption, written: readonly PullOp[]): void {
  const keepOwn = (id: string) => adoption.adopted.has(id) || run.mergedBases.has(id)
  if (adoption.adopted.size === 0 && run.mergedBases.size === 0) return
  const files = new Map(written.map((op) => [op.id, op.file]))
  const usedByWritten = new Set(written.filter((op) => !keepOwn(op.id)).flatMap((op) => run.facts.get(op.id)!.fileUrls))
  for (const asset of run.files.assets.values()) {
    if (!keepOwn(asset.ownerId) || usedByWritten.has(asset.url) || !run.files.downloadedNow.has(asset.url)) continue
    const merged = run.mergedBases.get(asset.ownerId)
    const owner = files.get(asset.ownerId)
    if (merged && owner !== undefined && merged.written.includes(relativeTo(owner, asset.path))) continue
    removeInside(run.dir, asset.path)
    run.result.written = run.result.written.filter((file) => file !== asset.path)
    removeIfEmpty(run.dir, path.posix.dirname(asset.path))
    removeIfEmpty(run.dir, path.posix.dirname(path.posix.dirname(asset.path)))
  }
}

/** The path of `target` as a link of the document file `from` writes it. */
function relativeTo(from: string, target: string): string {
  return path.posix.relative(path.posix.dirname(from), target)
}

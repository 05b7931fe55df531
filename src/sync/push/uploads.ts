/**
 * The files of a document: uploaded only when never uploaded before (by
 * content hash), sent as fresh guids with the body, and recorded with the
 * URL the stored item gives each, so later bodies reference the URL.
 */
import path from 'node:path'
import {repositoryRoot, type LocalAsset, type LocalNode} from '../../local/index.js'
import {PublishSource, svgUploadBytes} from '../../trust/index.js'
import {bodyHash, type RemoteDetail} from '../shared/remote.js'
import type {Rendered} from '../shared/render.js'
import type {RunState} from './item-step.js'

/** Uploads the files `node` uses that have no URL yet. */
export async function uploadFiles(run: RunState, node: LocalNode): Promise<Map<string, string>> {
  const fresh = new Map<string, string>()
  for (const asset of node.refs.assets) {
    const sha = asset.sha256
    // The scheduler ran this document only once no other is about to give this file a URL.
    if (run.store.state.assets[sha]?.url || fresh.has(sha)) continue
    const file = run.context.scan.assets[sha]!
    const op = run.uploadOps.get(sha) ?? {
      op: 'upload' as const,
      path: file.path,
      title: path.posix.basename(file.path),
      sha256: sha,
      reason: 'file not uploaded before'
    }
    run.emit({type: 'start', op})
    const name = path.posix.basename(file.path)
    const source = await uploadPath(run, file)
    // An SVG leaves sanitised (src/trust/svg.ts); its key stays the hash of the file, so an unchanged one is not sent again.
    const bytes = await svgUploadBytes(source, file.path)
    const {guid} = await run.options.client.uploadFile(source, {name, ...(bytes ? {bytes} : {})})
    run.writes++
    run.guids.set(sha, guid)
    fresh.set(sha, guid)
    run.store.setAsset(sha, {guid, usedBy: node.path})
    await run.store.saveChanges()
    run.emit({type: 'done', op})
  }
  return fresh
}

/**
 * The path whose bytes are uploaded for `file`: the single place an upload's
 * bytes are chosen. A file of the folder goes through the trust rule of
 * published files again (`src/trust/publishable.ts`): the scan let it
 * through, but the run may be a saved plan applied later, and what is sent
 * must still be a regular file of the repository, not under a dot-folder,
 * not ignored by git. A diagram's rendering is kbsync's own file, sent as
 * written. (`client.uploadFile` then streams the path's bytes.)
 */
async function uploadPath(run: RunState, file: LocalAsset): Promise<string> {
  if (file.diagram) return file.absolutePath
  let source = sources.get(run)
  if (source === undefined) {
    const dir = run.context.scan.dir
    sources.set(run, (source = repositoryRoot(dir).then((repository) => PublishSource.open(repository ?? dir, dir))))
  }
  return (await (await source).check(file.absolutePath)).real
}

/** The door of each run (one per run: it keeps git's ignore rules once read). */
const sources = new WeakMap<RunState, Promise<PublishSource>>()

/**
 * Records the URL the stored item (`articleId`) gives each file uploaded for
 * it (`attachments`: URL by guid), so later bodies reference the URL.
 */
export function recordUploads(
  run: RunState,
  fresh: ReadonlyMap<string, string>,
  attachments: Readonly<Record<string, string>>,
  articleId: string,
  path: string
): void {
  for (const [sha, guid] of fresh) {
    const url = attachments[guid]
    run.store.setAsset(sha, {guid, ...(url ? {url} : {}), articleId, usedBy: path})
  }
}

/**
 * The body the server stores for `rendered` sent with fresh upload guids:
 * each guid replaced by the URL the answer gives it. Used only when the
 * answer's body is exactly that (so no second render is needed); undefined
 * otherwise, and the caller renders with the URLs.
 */
export function withUrls(rendered: Rendered, fresh: Map<string, string>, detail: RemoteDetail): Rendered | undefined {
  let body = rendered.body
  for (const guid of fresh.values()) {
    const url = detail.attachments[guid]
    if (url === undefined) return undefined
    body = body.split(guid).join(url)
  }
  const hash = bodyHash(body)
  return hash === detail.bodyHash ? {body, hash, missingLinks: [], missingAssets: []} : undefined
}

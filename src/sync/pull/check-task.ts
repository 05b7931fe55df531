/**
 * The render of the check after a pull, where the pool runs it (a worker
 * thread, or in-process): a pulled document's body rendered exactly as push
 * will render it (`renderBody`), from plain data. The main thread looks up
 * every answer the render reads (the id of each linked document, the hash
 * and file reference of each local file, in the body's order of references)
 * and sends them with the body; the task parses and renders with those
 * answers alone, so the hash is the one the main thread would make.
 */
import type {LocalNode, Resolved} from '../../local/index.js'
import type {NoticeSettings} from '../shared/notice.js'
import {renderBody, type RenderContext} from '../shared/render.js'

/** A body to render for the check, with every answer its render reads. */
export interface CheckRequest {
  /** The body as the scan cut it, the file it is in, the document's path and kind. */
  body: string
  file: string
  path: string
  kind: LocalNode['kind']
  /** The references of the body as the scan resolved them (document order). */
  resolutions: Array<Resolved | null> | undefined
  rootTopicId: string | null
  /** The remote id of each linked document (`[target, id]`: absent, none yet). */
  ids: Array<[string, string]>
  /** The hash of each local file the body uses (`[path, sha256]`) and the reference of each hash (`[sha256, ref]`). */
  hashes: Array<[string, string]>
  refs: Array<[string, string]>
  notice?: NoticeSettings
}

/** What the check keeps of a render: its hash, and whether any link or file was not known yet (a placeholder). */
export interface CheckRender {
  hash: string
  complete: boolean
}

/** The request to render `node` (which has a body) with `context`: its body and the answers the render reads. */
export function checkRequest(node: LocalNode, context: RenderContext): CheckRequest {
  const ids: Array<[string, string]> = []
  const hashes: Array<[string, string]> = []
  const refs: Array<[string, string]> = []
  for (const resolved of node.resolutions ?? []) {
    if (resolved && 'link' in resolved && resolved.link.target !== '') {
      const id = context.idOf(resolved.link.target)
      if (id !== undefined) ids.push([resolved.link.target, id])
    } else if (resolved && 'asset' in resolved) {
      const sha = context.hashOf(resolved.asset.path)
      const ref = sha === undefined ? undefined : context.fileRef(sha)
      if (sha !== undefined) hashes.push([resolved.asset.path, sha])
      if (sha !== undefined && ref !== undefined) refs.push([sha, ref])
    }
  }
  return {
    body: node.body!,
    file: node.file ?? node.path,
    path: node.path,
    kind: node.kind,
    resolutions: node.resolutions,
    rootTopicId: context.rootTopicId,
    ids,
    hashes,
    refs,
    ...(context.notice ? {notice: context.notice} : {})
  }
}

/** Renders the body of `request` as push will (the pool's task `renderCheck`); throws where `renderBody` throws. */
export function renderCheckTask(request: CheckRequest): CheckRender {
  const ids = new Map(request.ids)
  const hashes = new Map(request.hashes)
  const refs = new Map(request.refs)
  const context: RenderContext = {
    idOf: (target) => ids.get(target),
    rootTopicId: request.rootTopicId,
    hashOf: (file) => hashes.get(file),
    fileRef: (sha) => refs.get(sha),
    ...(request.notice ? {notice: request.notice} : {})
  }
  const base = {path: request.path, title: '', refs: {links: [], assets: []}, body: request.body, file: request.file}
  const node: LocalNode =
    request.kind === 'topic'
      ? {...base, kind: 'topic', children: []}
      : {...base, kind: 'article', sourceHash: '', hasFrontMatter: false}
  if (request.resolutions) node.resolutions = request.resolutions
  return checkRenderOf(node, context)
}

/** What the check keeps of the render of `node` with `context`, wherever it runs (no render key: each node is rendered once). */
export function checkRenderOf(node: LocalNode, context: RenderContext): CheckRender {
  const rendered = renderBody(node, context, undefined)
  return {hash: rendered.hash, complete: rendered.missingLinks.length + rendered.missingAssets.length === 0}
}

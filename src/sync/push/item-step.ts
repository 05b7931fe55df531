/**
 * Writing one document: upload the files it needs (only content never
 * uploaded before), render its body with the ids and URLs known now, then one
 * create or one update carrying every change (body, title, parent), and the
 * permissions. The state is saved after each request, and a "create
 * intended" entry before each create, so a crash never duplicates an item.
 */
import type {KbItem, UpdateInput} from '../../api/types.js'
import {hasBody, readBodyAgain, writeKbId, type LocalNode, type StateEntry} from '../../local/index.js'
import type {LocalWriteError, StateStore} from '../../local/index.js'
import {permissionsSeenAfterWrite, stampBefore} from '../shared/permissions-seen.js'
import type {PlanContext} from './plan-context.js'
import {parentPathOf} from '../shared/parent-path.js'
import {attachmentUrls, toDetail} from '../shared/remote.js'
import {
  releaseRender,
  renderBody,
  renderKey,
  renderWithoutUnknownLinks,
  type RenderContext,
  type Rendered
} from '../shared/render.js'
import {convergedCreate} from './converge.js'
import {keepOrRelease, type ProvisionalHold} from './provisional-trees.js'
import type {UpdateListings} from './update-listings.js'
import {editedSincePlan} from './late-edit.js'
import {lostLinksNote, lostLinksWarning, renderForWrite, renderStored} from './lost-links.js'
import {recordUploads, uploadFiles, withUrls} from './uploads.js'
import type {PlanOp, PushOptions, SyncEvent} from '../shared/types.js'

/**
 * The placeholder body older releases created an article with when a link
 * cycle held it up. No longer written (such an article is created with its
 * own text, see `createProvisional`); kept so that checks can tell no
 * stored body holds it.
 */
export const provisionalBody = 'This article is being published by kbsync; its content follows in a moment.'

/** Shared, mutable state of one apply run. */
export interface RunState {
  context: PlanContext
  options: PushOptions
  store: StateStore
  /** Remote id by local path, growing as items are created. */
  ids: Map<string, string>
  /** sha256 of each local file the bodies use, by path. */
  assetHashes: Map<string, string>
  /** Fresh upload guids of this run, by sha256. */
  guids: Map<string, string>
  /** Which document uploads a file (the first that needs it). */
  owners: Map<string, string>
  /** The documents that could not be written this run, with why. */
  failedPaths: Map<string, string>
  uploadOps: Map<string, PlanOp>
  written: string[]
  writes: number
  /** Items found edited on the platform after the plan read them (left untouched, `.remote.md` written). */
  lateConflicts: number
  /** A local write failed for a reason of the machine: the run starts nothing new (`scheduler.ts`). */
  localFault?: LocalWriteError
  /** What documents created provisionally keep for their whole write: a template or a tree (`provisional-trees.ts`). */
  provisionalTrees: ProvisionalHold
  /** The recent listings of topics that the last look before an overwrite reads (`late-edit.ts`). */
  listings: UpdateListings
  emit: (event: SyncEvent) => void
}

/** The render context of an apply run: current ids, known URLs, then this run's guids. */
export function runRenderContext(run: RunState): RenderContext {
  return {
    idOf: (target) => run.ids.get(target),
    rootTopicId: run.context.remote.rootTopicId,
    hashOf: (file) => run.assetHashes.get(file),
    fileRef: (sha) => run.store.state.assets[sha]?.url ?? run.guids.get(sha),
    ...(run.context.notice ? {notice: run.context.notice} : {})
  }
}

/** The render context once uploads have URLs: what the server stores (it turns each fresh guid into its URL). */
function storedRenderContext(run: RunState): RenderContext {
  return {...runRenderContext(run), fileRef: (sha) => run.store.state.assets[sha]?.url}
}

/** The remote id of a document's parent folder (undefined while that folder is not created). */
export function parentIdOf(run: RunState, node: LocalNode): string | null | undefined {
  const parentPath = parentPathOf(node)
  return parentPath === '' ? run.context.remote.rootTopicId : run.ids.get(parentPath)
}

/**
 * Creates `node` before every document it links to has an id (it links to
 * itself, or a link cycle holds it up): with its own text, each link to a
 * document without an id yet written as its text, so that a reader never
 * sees a placeholder, even when a later step of the run fails. Marked
 * pending: its whole body is written once those ids exist (in this run;
 * should the run fail first, in the next). `uploaded` are the files the
 * caller has just uploaded for it (their guids go with this create).
 */
export async function createProvisional(
  run: RunState,
  node: LocalNode,
  op: PlanOp,
  uploaded?: Map<string, string>
): Promise<void> {
  const parentId = parentIdOf(run, node)!
  readBodyAgain(run.context.scan.dir, node)
  const fresh = uploaded ?? (await uploadFiles(run, node))
  const context = runRenderContext(run)
  const rendered = renderWithoutUnknownLinks(node, context)
  if (rendered.missingAssets.length > 0)
    throw new Error(`cannot render ${node.path}: unresolved ${rendered.missingAssets.join(', ')}`)
  const item = await journaledCreate(run, node, parentId, hasBody(node) ? rendered.body : undefined)
  recordUploads(run, fresh, attachmentUrls(item), item.id, node.path)
  // Just created: its permissions are the platform's defaults.
  run.store.setItem(node.path, {
    ...entryFrom(node, item, parentId),
    permissionsSeenAt: item.updated_at,
    pending: 'provisional'
  })
  await run.store.saveChanges()
  // Its whole write comes later (unless its caller writes it right away).
  if (!uploaded) keepOrRelease(run, node, context)
  const why = rendered.missingLinks.every((target) => target === node.path) ? 'it links to itself' : 'a link cycle'
  run.emit({
    type: 'done',
    op,
    remoteId: item.id,
    note: `created without the links to documents not created yet (${why}); they follow`
  })
}

/** Writes `node` as planned by `op` (create or update). Returns whether a request was sent. */
export async function writeItem(run: RunState, node: LocalNode, op: PlanOp): Promise<boolean> {
  const {client} = run.options
  const parentId = parentIdOf(run, node)
  if (parentId === undefined) throw new Error(`parent folder of ${node.path} has no remote id`)
  // The plan let go of the body: read again, as long as the file still holds what was planned.
  readBodyAgain(run.context.scan.dir, node)
  if (await editedSincePlan(run, node, op, () => renderBody(node, runRenderContext(run)))) return false
  const fresh = await uploadFiles(run, node)
  let {rendered, lost} = renderForWrite(node, runRenderContext(run), run.failedPaths)
  const others = rendered.missingLinks.filter((target) => target !== node.path)
  if (others.length > 0 || rendered.missingAssets.length > 0) {
    throw new Error(`cannot render ${node.path}: unresolved ${[...others, ...rendered.missingAssets].join(', ')}`)
  }
  if (rendered.missingLinks.length > 0) {
    // It links to itself and has no id before it exists: created first, then written whole right away.
    await createProvisional(run, node, op, fresh)
    fresh.clear()
    ;({rendered, lost} = renderForWrite(node, runRenderContext(run), run.failedPaths))
  }
  const state = run.store.state
  const id = run.ids.get(node.path)
  const provisional = state.items[node.path]?.pending === 'provisional'
  let item: KbItem
  if (id === undefined) {
    item = await journaledCreate(run, node, parentId, hasBody(node) ? rendered.body : undefined)
  } else {
    const input = updateInput(run, node, op, id, rendered, parentId, lost.length > 0)
    if (Object.keys(input).length === 0) {
      nothingLeft(run, node, op, id, lost)
      if (provisional) await pinId(run, node, id)
      return false
    }
    item = await client.updateItem(id, input)
    run.writes++
  }
  const detail = toDetail(item)
  recordUploads(run, fresh, detail.attachments, item.id, node.path)
  // With fresh uploads the stored body holds their URLs, not the guids sent: record that body's hash.
  const storedContext = storedRenderContext(run)
  const after =
    fresh.size > 0 ? (withUrls(rendered, fresh, detail) ?? renderStored(node, storedContext, lost)) : rendered
  const key = after.missingAssets.length === 0 && lost.length === 0 ? renderKey(node, storedContext) : undefined
  const previous = state.items[node.path]?.id === item.id ? state.items[node.path] : undefined
  // A create gives the platform's default permissions; an update keeps them known only if nobody else wrote in between.
  const snapshot = id === undefined ? undefined : (run.context.remote.details[id] ?? run.context.remote.items[id])
  const before = id === undefined ? undefined : stampBefore(previous, snapshot)
  const seen = permissionsSeenAfterWrite(previous?.permissionsSeenAt, before, {
    updatedAt: item.updated_at,
    version: item.version
  })
  run.store.setItem(node.path, {
    ...entryFrom(node, item, parentId),
    renderedHash: after.missingAssets.length === 0 ? after.hash : rendered.hash,
    ...(key !== undefined ? {renderKey: key} : {}),
    remoteHash: detail.bodyHash,
    ...(previous?.permissionsKey ? {permissionsKey: previous.permissionsKey} : {}),
    ...(seen !== undefined ? {permissionsSeenAt: seen} : {}),
    // Links published as text: the next run writes it whole.
    ...(lost.length > 0 ? {pending: 'provisional' as const} : {})
  })
  // Written: its text is not needed again this run (the next reads the file), only its hashes and references.
  releaseRender(node)
  delete node.body
  run.provisionalTrees.release(node.path)
  await run.store.saveChanges()
  run.emit({
    type: 'done',
    op,
    remoteId: item.id,
    ...(lost.length > 0
      ? {note: lostLinksNote(lost), warning: lostLinksWarning(node, lost, run.failedPaths)}
      : provisional
        ? {note: 'its whole body, links included, now that their targets exist'}
        : {})
  })
  // A provisional create is pinned only now: pinning rewrites the file, which its whole write reads again (checked
  // against the scan's hash); the state holds the id meanwhile, so a run stopped in between creates nothing twice.
  if (id === undefined || provisional) await pinId(run, node, item.id)
  return true
}

/** What is left to send for an existing item: the body (unless it is already stored), the title, the parent. */
function updateInput(
  run: RunState,
  node: LocalNode,
  op: PlanOp,
  id: string,
  rendered: Rendered,
  parentId: string | null,
  partial: boolean
): UpdateInput {
  const entry = run.store.state.items[node.path]
  const remote = run.context.remote.items[id]
  const detail = run.context.remote.details[id]
  const input: UpdateInput = {}
  const pending = entry?.pending !== undefined
  if (hasBody(node) && (op.changes?.includes('body') || pending)) {
    const same = rendered.hash === entry?.renderedHash || rendered.hash === detail?.bodyHash
    // A pending body is written whole; one that still lacks the same links is stored already.
    if (!same || (pending && !partial) || run.options.force) input.body = rendered.body
  }
  if (remote && node.title !== remote.title) input.title = node.title
  if (remote && remote.parentId !== parentId) {
    input.parent_topic_id = parentId
    input.parent_topic_id_changed = true
  }
  return input
}

/** An update with nothing to send: the item is as it should be (still pending while links to failed documents are text). */
function nothingLeft(run: RunState, node: LocalNode, op: PlanOp, id: string, lost: readonly string[]): void {
  const entry = run.store.state.items[node.path]
  if (entry && lost.length === 0) {
    entry.pending = undefined
    run.store.touchItem(node.path)
  }
  run.emit({
    type: 'done',
    op,
    remoteId: id,
    skipped: true,
    note: 'nothing left to write',
    ...(lost.length > 0 ? {warning: lostLinksWarning(node, lost, run.failedPaths)} : {})
  })
}

/** `--write-ids`: writes the new item's id into the front matter of its file. */
async function pinId(run: RunState, node: LocalNode, id: string): Promise<void> {
  // A file pinned to another knowledge base keeps its kb_id: this one's id is in this target's state.
  if (!run.options.writeIds || !node.file || node.kbId || node.foreignKbId) return
  await writeKbId(run.context.scan.dir, node.file, id)
  run.written.push(node.file)
}

/** A create preceded by a saved "create intended" entry, converging with a concurrent run's (`converge.ts`). */
async function journaledCreate(
  run: RunState,
  node: LocalNode,
  parentId: string | null,
  body: string | undefined
): Promise<KbItem> {
  run.store.setItem(node.path, {type: node.kind, title: node.title, parentId, pending: 'create'})
  await run.store.saveChanges()
  // A concurrent run may create the same item: the one every run keeps is settled before its id is used.
  return convergedCreate(run, node, parentId, body)
}

function entryFrom(node: LocalNode, item: KbItem, parentId: string | null): StateEntry {
  return {
    id: item.id,
    type: node.kind,
    title: node.title,
    parentId,
    ...(node.sourceHash ? {sourceHash: node.sourceHash} : {}),
    remoteVersion: item.version,
    remoteUpdatedAt: item.updated_at,
    remoteHash: toDetail(item).bodyHash
  }
}

/** A message for an error, without stack. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

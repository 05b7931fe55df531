/**
 * The plan of one document: create it, or compare it with its remote item
 * and its base (`shared/compare.ts`) and plan what differs (body, title,
 * parent, permissions, files to upload), or report the web edit that stops
 * it (conflict, drift). What needs no request goes to `refresh` (the state
 * entry to record).
 */
import path from 'node:path'
import {
  hasBody,
  type Diagnostic,
  type LocalNode,
  type ScanResult,
  type StateEntry,
  type SyncState
} from '../../local/index.js'
import {
  bodyEditedRemotely,
  classify,
  editedLocally,
  holdsRender,
  sideState,
  titleEditedRemotely
} from '../shared/compare.js'
import type {Matching} from '../shared/match.js'
import {parentPathOf} from '../shared/parent-path.js'
import {bodyHash, holdsBody, type RemoteDetail, type RemoteItem, type RemoteSnapshot} from '../shared/remote.js'
import {renderBody, renderedHashOf, type RenderContext} from '../shared/render.js'
import type {Baseline, OpKind, PlanOp, PlanOptions} from '../shared/types.js'
import {planPermissions} from './plan-permissions.js'

/** What planning the documents reads and gathers. */
export interface PlanRun {
  scan: ScanResult
  remote: RemoteSnapshot
  state: SyncState
  matching: Matching
  options: PlanOptions
  context: RenderContext
  ops: PlanOp[]
  refresh: Record<string, StateEntry>
  forget: string[]
  /** Warnings of the documents (a topic body the platform keeps). */
  kept: Diagnostic[]
  /** Files already planned for upload, by sha256. */
  uploads: Set<string>
  /** The state key of each remote id. */
  keyOfId: Map<string, string>
}

/** Where a document goes: the fields every op of it shares. */
export type Where = Pick<PlanOp, 'path' | 'type' | 'title' | 'parentPath' | 'parentId'>

/** What a topic created without a body recorded: no text to keep. */
const emptyBodyHash = bodyHash('')

/** Plans `node` (not the root) into `run`. */
export function planDocument(run: PlanRun, node: LocalNode): void {
  const id = run.matching.ids.get(node.path)
  const parentPath = parentPathOf(node)
  const parentId = parentPath === '' ? run.remote.rootTopicId : run.matching.ids.get(parentPath)
  const where: Where = {
    path: node.path,
    type: node.kind,
    title: node.title,
    parentPath,
    ...(parentId !== undefined ? {parentId} : {})
  }
  if (id === undefined) planCreate(run, node, where)
  else planExisting(run, node, id, where)
}

/** Files `node` uses that were never uploaded and no other document uploads first. */
function planUploads(run: PlanRun, node: LocalNode): void {
  for (const asset of node.refs.assets) {
    if (run.state.assets[asset.sha256]?.url || run.uploads.has(asset.sha256)) continue
    run.uploads.add(asset.sha256)
    const file = run.scan.assets[asset.sha256]!
    run.ops.push({
      op: 'upload',
      path: file.path,
      title: path.posix.basename(file.path),
      sha256: asset.sha256,
      usedBy: node.path,
      reason: 'file not uploaded before'
    })
  }
}

function planCreate(run: PlanRun, node: LocalNode, where: Where): void {
  // No render here: a new body is rendered when it is written (ahead of its turn, while requests are in flight), which keeps it out of the time before the first write.
  const again = run.matching.remoteGone.has(node.path)
  run.ops.push({
    op: 'create',
    ...where,
    reason: again
      ? 'the remote item was deleted; creating it again'
      : `new ${node.kind === 'topic' ? 'folder' : 'file'}`
  })
  planUploads(run, node)
  if (node.permissions)
    run.ops.push({op: 'permissions', ...where, permissions: node.permissions, reason: 'permissions of a new item'})
}

/** The platform rejects an empty body: the text pushed before stays, and the writer should know. */
function warnKeptBody(run: PlanRun, node: LocalNode, entry: StateEntry | undefined): void {
  if (
    node.kind !== 'topic' ||
    hasBody(node) ||
    entry?.renderedHash === undefined ||
    entry.renderedHash === emptyBodyHash
  )
    return
  run.kept.push({
    severity: 'warning',
    file: node.file ?? `${node.path}/_index.md`,
    message:
      'This topic had a body and its `_index.md` now has none: the platform cannot hold an empty body, so it keeps the old one',
    hint: 'Write the text the topic should show instead',
    rule: 'topic-body-kept'
  })
}

/** The body as push would write it, and whether it must be written. */
interface BodyFacts {
  rendered: ReturnType<typeof renderedHashOf> | undefined
  known: boolean
  changed: boolean
  text: () => string
}

function bodyFacts(
  run: PlanRun,
  node: LocalNode,
  entry: StateEntry | undefined,
  detail: RemoteDetail | undefined
): BodyFacts {
  const rendered = hasBody(node) ? renderedHashOf(node, run.context, entry) : undefined
  const known = rendered?.complete === true
  const text = () => renderBody(node, run.context, rendered?.key).body
  let changed = false
  if (rendered) {
    if (!known || entry?.pending) changed = true
    else if (entry?.renderedHash !== undefined)
      changed = rendered.hash !== entry.renderedHash && !(detail && holdsBody(detail, rendered.hash, text))
    else changed = detail ? !holdsBody(detail, rendered.hash, text) : true
  }
  return {rendered, known, changed, text}
}

/** The remote state the plan saw: the record read now, else the state's baseline. */
function baselineOf(detail: RemoteDetail | undefined, entry: StateEntry | undefined): Baseline {
  if (detail) return {version: detail.version, updatedAt: detail.updatedAt, remoteHash: detail.bodyHash}
  return entry ? {version: entry.remoteVersion, updatedAt: entry.remoteUpdatedAt, remoteHash: entry.remoteHash} : {}
}

/** Edits made on the platform since the base, by what they touched. */
function remoteEdits(
  node: LocalNode,
  item: RemoteItem,
  entry: StateEntry | undefined,
  detail: RemoteDetail | undefined,
  body: BodyFacts
): {body: boolean; title: boolean} {
  if (entry === undefined) return {body: false, title: false}
  const {rendered} = body
  // A topic without a body file: push never writes its body, so the platform's is not compared.
  const bodyEdited =
    detail !== undefined &&
    rendered !== undefined &&
    bodyEditedRemotely(detail, entry, () => holdsRender(detail, rendered, body.text))
  return {body: bodyEdited, title: titleEditedRemotely(item, entry, node)}
}

function planExisting(run: PlanRun, node: LocalNode, id: string, where: Where): void {
  const item = run.remote.items[id]!
  const stateKey = run.keyOfId.get(id)
  const entry = stateKey !== undefined ? run.state.items[stateKey] : undefined
  if (stateKey !== undefined && stateKey !== node.path) run.forget.push(stateKey)
  const detail = run.remote.details[id]
  warnKeptBody(run, node, entry)
  const body = bodyFacts(run, node, entry, detail)
  const baseline = baselineOf(detail, entry)
  const edits = remoteEdits(node, item, entry, detail, body)
  if ((edits.body || edits.title) && !run.options.force) {
    const verdict = classify({
      base: entry !== undefined,
      local: sideState(true, entry !== undefined && editedLocally(node, entry)),
      remote: 'changed'
    })
    const what = [edits.body ? 'body' : '', edits.title ? 'title' : ''].filter(Boolean).join(' and ')
    run.ops.push({
      op: verdict === 'conflict' ? 'conflict' : 'drift',
      ...where,
      remoteId: id,
      baseline,
      reason:
        verdict === 'conflict'
          ? `edited on the platform (${what}) and locally since the last sync`
          : `edited on the platform (${what}) since the last sync; run \`kbsync pull\` to take it, or push with --force to overwrite`
    })
    return
  }
  const changes: NonNullable<PlanOp['changes']> = []
  if (body.changed || (edits.body && run.options.force)) changes.push('body')
  if (node.title !== item.title) changes.push('title')
  if (item.parentId !== where.parentId) changes.push('parent')
  const entryNow = entryAfterPlan(node, id, item, entry, detail, body, where.parentId)
  if (changes.length > 0) {
    const newHash = body.known ? {newHash: body.rendered!.hash} : {}
    run.ops.push({
      op: changeKind(changes),
      ...where,
      remoteId: id,
      changes,
      baseline,
      reason: changeReason(run, node, item, changes),
      ...newHash
    })
    if (changes.includes('body')) planUploads(run, node)
  }
  planPermissions(run, node, id, entry, entryNow, where)
  if (changes.length === 0) run.refresh[node.path] = entryNow
}

/** The state entry of a document the plan found as it should be (recorded without a request). */
function entryAfterPlan(
  node: LocalNode,
  id: string,
  item: RemoteItem,
  entry: StateEntry | undefined,
  detail: RemoteDetail | undefined,
  body: BodyFacts,
  parentId: string | null | undefined
): StateEntry {
  const entryNow: StateEntry = {
    ...entry,
    id,
    type: node.kind,
    title: node.title,
    parentId: parentId ?? null,
    ...(node.sourceHash ? {sourceHash: node.sourceHash} : {}),
    ...(detail ? {remoteVersion: detail.version, remoteUpdatedAt: detail.updatedAt, remoteHash: detail.bodyHash} : {}),
    ...(!detail && !entry && item.updatedAt ? {remoteUpdatedAt: item.updatedAt} : {})
  }
  const {rendered} = body
  if (body.known && !body.changed && rendered) {
    entryNow.renderedHash = rendered.hash
    if (rendered.key !== undefined) entryNow.renderKey = rendered.key
    else delete entryNow.renderKey
  }
  return entryNow
}

/** An update, a rename or a move: named by the weightiest of its changes. */
function changeKind(changes: NonNullable<PlanOp['changes']>): OpKind {
  return changes.includes('parent') ? 'move' : changes.includes('title') ? 'rename' : 'update'
}

/** The changes of a document in words, and how it was matched when that is news. */
function changeReason(
  run: PlanRun,
  node: LocalNode,
  item: RemoteItem,
  changes: NonNullable<PlanOp['changes']>
): string {
  const reasons = {
    body: 'body changed',
    title: `title "${item.title}" -> "${node.title}"`,
    parent: 'moved to another folder'
  }
  const why = changes.map((c) => reasons[c]).join(', ')
  const how = run.matching.how.get(node.path)
  return how === 'content'
    ? `matched by content: ${why}`
    : how === 'edited'
      ? `renamed and edited (most of its lines kept): ${why}`
      : why
}

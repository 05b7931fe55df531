/**
 * The plan: a pure function of the scan, the remote snapshot, the sync state
 * and the matching. It decides per document whether to create, update (body),
 * rename (title), move (parent), set permissions or upload files, detects web
 * edits (drift, conflicts) and lists remote items no file maps to (deleted
 * only with `--prune`, and only when safe).
 */
import path from 'node:path'
import {countSeverities, permissionsKey, type Diagnostic, type LocalNode, type LocalPermissions, type ScanResult, type StateEntry, type SyncState} from '../../local/index.js'
import type {Permissions} from '../../api/types.js'
import type {Matching} from '../shared/match.js'
import {bodyHash, holdsBody, type RemoteSnapshot} from '../shared/remote.js'
import {renderBody, renderedHashOf} from '../shared/render.js'
import {planRenderContext} from '../shared/render-context.js'
import {parentPathOf} from '../shared/parent-path.js'
import type {OpKind, Orphan, PlanOp, PushPlan} from '../shared/types.js'

/** Options that change the plan. */
export interface PlanOptions {
  prune?: boolean
  force?: boolean
  yes?: boolean
  maxDeletions?: number
  /** More warnings than this: the plan is not applied (`warningLimit`). */
  maxWarnings?: number
}

/** Everything apply needs besides the serialisable plan. */
export interface PlanContext {
  scan: ScanResult
  state: SyncState
  remote: RemoteSnapshot
  matching: Matching
  /** State entries to record without any request (matched items, refreshed baselines, renamed keys). */
  refresh: Record<string, StateEntry>
  /** State keys to drop (renamed paths, items gone from the remote). */
  forget: string[]
}

const contextKey = Symbol('kbsync.planContext')

/** The non-serialised context of a plan made by `computePlan`. */
export function contextOf(plan: PushPlan): PlanContext {
  const context = (plan as unknown as Record<symbol, PlanContext>)[contextKey]
  if (!context) throw new Error('This plan was not made by planPush (its context is missing)')
  return context
}

/** Attaches the context without making it part of the plan's JSON. */
export function attachContext(plan: PushPlan, context: PlanContext): PushPlan {
  Object.defineProperty(plan, contextKey, {value: context, enumerable: false})
  return plan
}

/** Whether remote permissions differ from the declared ones. */
export function permissionsDiffer(want: LocalPermissions, have: Permissions | undefined): boolean {
  if (!have) return true
  const ids = (people: Array<{id: number}>) => [...new Set(people.map((p) => p.id))].sort((a, b) => a - b).join(',')
  if (want.inherit !== undefined && want.inherit !== have.inherit) return true
  return ids(have.readers) !== want.readers.join(',') || ids(have.editors) !== want.editors.join(',')
}

/** What a topic created without a body recorded: no text to keep. */
const emptyBodyHash = bodyHash('')

/** Computes the plan (pure: reads only its arguments). */
export function computePlan(scan: ScanResult, remote: RemoteSnapshot, state: SyncState, matching: Matching, options: PlanOptions): PushPlan {
  const ops: PlanOp[] = []
  const refresh: Record<string, StateEntry> = {}
  const forget: string[] = []
  const {ids} = matching
  const context = planRenderContext(scan, remote, ids, state)
  const uploads = new Set<string>()
  const keyOfId = new Map<string, string>()
  const kept: Diagnostic[] = []
  for (const [key, entry] of Object.entries(state.items)) if (entry.id) keyOfId.set(entry.id, key)

  const planUploads = (node: LocalNode) => {
    for (const asset of node.refs.assets) {
      if (state.assets[asset.sha256]?.url || uploads.has(asset.sha256)) continue
      uploads.add(asset.sha256)
      const file = scan.assets[asset.sha256]!
      ops.push({op: 'upload', path: file.path, title: path.posix.basename(file.path), sha256: asset.sha256, usedBy: node.path, reason: 'file not uploaded before'})
    }
  }

  const visit = (node: LocalNode): void => {
    if (node.path !== '') planNode(node)
    if (node.kind === 'topic') for (const child of node.children) visit(child)
  }

  const planNode = (node: LocalNode): void => {
    const id = ids.get(node.path)
    const parentPath = parentPathOf(node)
    const parentId = parentPath === '' ? remote.rootTopicId : ids.get(parentPath)
    const where = {path: node.path, type: node.kind, title: node.title, parentPath, ...(parentId !== undefined ? {parentId} : {})}
    if (id === undefined) {
      // No render here: a new body is rendered when it is written (ahead of its turn, while requests are in flight), which keeps it out of the time before the first write.
      ops.push({
        op: 'create',
        ...where,
        reason: matching.remoteGone.has(node.path) ? 'the remote item was deleted; creating it again' : `new ${node.kind === 'topic' ? 'folder' : 'file'}`
      })
      planUploads(node)
      if (node.permissions) ops.push({op: 'permissions', ...where, permissions: node.permissions, reason: 'permissions of a new item'})
      return
    }
    const item = remote.items[id]!
    const stateKey = keyOfId.get(id)
    const entry = stateKey !== undefined ? state.items[stateKey] : undefined
    if (stateKey !== undefined && stateKey !== node.path) forget.push(stateKey)
    const detail = remote.details[id]
    if (node.kind === 'topic' && node.body === undefined && entry?.renderedHash !== undefined && entry.renderedHash !== emptyBodyHash) {
      // The platform rejects an empty body: the text pushed before stays, and the writer should know.
      kept.push({
        severity: 'warning',
        file: node.file ?? `${node.path}/_index.md`,
        message: 'This topic had a body and its `_index.md` now has none: the platform cannot hold an empty body, so it keeps the old one',
        hint: 'Write the text the topic should show instead',
        rule: 'topic-body-kept'
      })
    }
    const rendered = node.body !== undefined ? renderedHashOf(node, context, entry) : undefined
    const renderedKnown = rendered?.complete === true
    const baseline = {
      ...(detail ? {version: detail.version, updatedAt: detail.updatedAt, remoteHash: detail.bodyHash} : {}),
      ...(!detail && entry ? {version: entry.remoteVersion, updatedAt: entry.remoteUpdatedAt, remoteHash: entry.remoteHash} : {})
    }
    const localBody = () => renderBody(node, context, rendered?.key).body
    let bodyChanged = false
    if (rendered) {
      if (!renderedKnown || entry?.pending) bodyChanged = true
      else if (entry?.renderedHash !== undefined) bodyChanged = rendered.hash !== entry.renderedHash && !(detail && holdsBody(detail, rendered.hash, localBody))
      else bodyChanged = detail ? !holdsBody(detail, rendered.hash, localBody) : true
    }
    const hasBaseline = entry?.remoteHash !== undefined
    // A remote body equal to what we would write is no web edit (it may be our own write whose state save a crash lost).
    const remoteBodyChanged =
      hasBaseline && detail !== undefined && rendered !== undefined && detail.bodyHash !== entry!.remoteHash && !(renderedKnown && holdsBody(detail, rendered.hash, localBody))
    const remoteTitleChanged = entry !== undefined && item.title !== entry.title && item.title !== node.title
    const localTitleChanged = entry ? node.title !== entry.title : node.title !== item.title
    const remoteChanged = remoteBodyChanged || remoteTitleChanged
    const localChanged = bodyChanged || localTitleChanged
    if (remoteChanged && !options.force) {
      const what = [remoteBodyChanged ? 'body' : '', remoteTitleChanged ? 'title' : ''].filter(Boolean).join(' and ')
      ops.push({
        op: localChanged ? 'conflict' : 'drift',
        ...where,
        remoteId: id,
        baseline,
        reason: localChanged
          ? `edited on the platform (${what}) and locally since the last sync`
          : `edited on the platform (${what}) since the last sync; run \`kbsync pull\` to take it, or push with --force to overwrite`
      })
      return
    }
    const changes: NonNullable<PlanOp['changes']> = []
    if (bodyChanged || (remoteBodyChanged && options.force)) changes.push('body')
    if (node.title !== item.title) changes.push('title')
    if (item.parentId !== parentId) changes.push('parent')
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
    if (renderedKnown && !bodyChanged && rendered) {
      entryNow.renderedHash = rendered.hash
      if (rendered.key !== undefined) entryNow.renderKey = rendered.key
      else delete entryNow.renderKey
    }
    if (changes.length > 0) {
      const op: OpKind = changes.includes('parent') ? 'move' : changes.includes('title') ? 'rename' : 'update'
      const reasons = {body: 'body changed', title: `title "${item.title}" -> "${node.title}"`, parent: 'moved to another folder'}
      const why = changes.map((c) => reasons[c]).join(', ')
      const how = matching.how.get(node.path)
      const reason = how === 'content' ? `matched by content: ${why}` : how === 'edited' ? `renamed and edited (most of its lines kept): ${why}` : why
      ops.push({op, ...where, remoteId: id, changes, baseline, reason, ...(renderedKnown ? {newHash: rendered!.hash} : {})})
      if (changes.includes('body')) planUploads(node)
    }
    if (node.permissions) {
      const key = permissionsKey(node.permissions)
      if (entry?.permissionsKey !== key) {
        if (permissionsDiffer(node.permissions, remote.permissions[id])) {
          ops.push({op: 'permissions', ...where, remoteId: id, permissions: node.permissions, reason: 'permissions differ from the platform'})
        } else {
          entryNow.permissionsKey = key
        }
      }
    }
    if (changes.length === 0) refresh[node.path] = entryNow
  }

  visit(scan.root)
  const orphans = findOrphans(remote, ids, state, scan)
  const canPrune = options.prune === true && scan.articleCount > 0
  const deletions = canPrune ? orderDeletions(orphans.filter((o) => o.prunable), remote) : []
  for (const orphan of deletions) {
    ops.push({op: 'delete', path: orphan.path ?? '', type: orphan.type, remoteId: orphan.remoteId, title: orphan.title, parentId: remote.items[orphan.remoteId]!.parentId, reason: orphan.reason})
  }
  for (const [key, entry] of Object.entries(state.items)) {
    if (!(key in scan.byPath) && (entry.id === undefined || !remote.items[entry.id])) forget.push(key)
  }
  const diagnostics = [...scan.diagnostics, ...matching.diagnostics, ...kept]
  if (options.prune && scan.articleCount === 0) {
    diagnostics.push({severity: 'warning', message: 'The folder has no articles: nothing is pruned (an empty or broken checkout looks like mass deletion)', rule: 'prune-empty-scan'})
  }
  const summary = Object.fromEntries(
    (['create', 'update', 'move', 'rename', 'delete', 'permissions', 'upload', 'conflict', 'drift'] as const).map((kind) => [kind, ops.filter((op) => op.op === kind).length])
  ) as Record<OpKind, number>
  const plan: PushPlan = {
    schemaVersion: 1,
    dir: scan.dir,
    rootTopicId: remote.rootTopicId,
    ops,
    orphans,
    diagnostics,
    blocked: diagnostics.some((d) => d.severity === 'error'),
    needsConfirmation: deletions.length > (options.maxDeletions ?? 10) && !options.yes,
    ...(options.maxWarnings !== undefined && countSeverities(diagnostics).warnings > options.maxWarnings ? {warningLimit: options.maxWarnings} : {}),
    summary
  }
  return attachContext(plan, {scan, state, remote, matching, refresh, forget})
}

/** Remote items under the root that no local document maps to. */
function findOrphans(remote: RemoteSnapshot, ids: Map<string, string>, state: SyncState, scan: ScanResult): Orphan[] {
  const mapped = new Set(ids.values())
  const known = new Map<string, string>()
  for (const [key, entry] of Object.entries(state.items)) if (entry.id && !(key in scan.byPath)) known.set(entry.id, key)
  for (const [key, entry] of Object.entries(state.items)) if (entry.id && key in scan.byPath && ids.get(key) !== entry.id) known.set(entry.id, key)
  const orphans: Orphan[] = []
  // A topic is prunable only if everything inside it is prunable too (never delete what kbsync does not own).
  const check = (id: string): boolean => {
    const item = remote.items[id]!
    const childrenOk = item.children.map(check).every(Boolean)
    if (mapped.has(id)) return false
    const statePath = known.get(id)
    const prunable = statePath !== undefined && childrenOk
    orphans.push({
      remoteId: id,
      type: item.type,
      title: item.title,
      ...(statePath !== undefined ? {path: statePath} : {}),
      prunable,
      reason: prunable
        ? `\`${statePath}\` is gone from the folder`
        : statePath === undefined
          ? 'not created or matched by kbsync: never deleted'
          : 'holds items kbsync does not own: left alone'
    })
    return prunable
  }
  for (const id of remote.top) check(id)
  return orphans
}

/** Deletions children first, so a topic is empty when its turn comes. */
function orderDeletions(prunable: Orphan[], remote: RemoteSnapshot): Orphan[] {
  const depth = (id: string): number => {
    let d = 0
    for (let parent = remote.items[id]?.parentId; parent && remote.items[parent]; parent = remote.items[parent]!.parentId) d++
    return d
  }
  return [...prunable].sort((a, b) => depth(b.remoteId) - depth(a.remoteId))
}

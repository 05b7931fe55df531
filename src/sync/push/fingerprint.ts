/**
 * A plan's fingerprint: short hashes of what it was computed from (each
 * document of the folder, the local files, each remote item, the sync
 * state). `kbsync push --plan FILE` applies a saved plan only when the
 * fingerprint computed now is the same, and names what differs otherwise.
 */
import {sha256, type ScanResult, type SyncState} from '../../local/index.js'
import {permissionsKey} from '../../local/index.js'
import type {RemoteSnapshot} from '../shared/remote.js'
import type {PlanFingerprint, PushPlan} from '../shared/types.js'
import {contextOf} from './plan-context.js'

/** 16 hex digits of a value's sha256: enough to tell versions of one thing apart, short in a plan file. */
function shortHash(value: unknown): string {
  return sha256(JSON.stringify(value)).slice(0, 16)
}

/** The fingerprint of a plan's inputs (pure). */
export function planFingerprint(scan: ScanResult, remote: RemoteSnapshot, state: SyncState): PlanFingerprint {
  const documents: Record<string, string> = {}
  for (const path of Object.keys(scan.byPath).sort()) {
    const node = scan.byPath[path]!
    // What the plan reads of a document: where it sits, its title, its text and what its links resolved to.
    const facts = [
      node.kind,
      node.title,
      node.parent ?? null,
      node.sourceHash ?? null,
      node.bodyKey ?? null,
      node.resolutions ?? null
    ]
    documents[path] = shortHash([...facts, node.permissions ? permissionsKey(node.permissions) : null])
  }
  const assets = shortHash(
    Object.values(scan.assets)
      .map((asset) => [asset.sha256, asset.path, ...(asset.alsoAt ?? [])])
      .sort()
  )
  const items: Record<string, string> = {}
  for (const id of Object.keys(remote.items).sort()) {
    const {type, title, parentId, updatedAt} = remote.items[id]!
    const detail = remote.details[id]
    items[id] = shortHash([
      type,
      title,
      parentId,
      updatedAt ?? null,
      detail ? [detail.version, detail.bodyHash] : null,
      remote.permissions[id] ?? null
    ])
  }
  return {dir: scan.dir, rootTopicId: remote.rootTopicId, documents, assets, items, state: shortHash(state)}
}

/** Keys of two records whose values differ (present in one only, or different), sorted. */
function differing(saved: Record<string, string>, now: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(saved), ...Object.keys(now)])
  return [...keys].filter((key) => saved[key] !== now[key]).sort()
}

/** At most `limit` names, then how many more. */
function listed(names: string[], limit = 5): string {
  const shown = names.slice(0, limit).join(', ')
  return names.length > limit ? `${shown} and ${names.length - limit} more` : shown
}

/** What changed between a saved fingerprint and the one computed now, in words (empty: nothing). */
export function fingerprintChanges(saved: PlanFingerprint, now: PlanFingerprint): string[] {
  if (saved.dir !== now.dir) return [`it is the plan of the folder ${saved.dir}, not of ${now.dir}`]
  if (saved.rootTopicId !== now.rootTopicId) {
    return [
      `it is the plan of the root ${saved.rootTopicId ?? '(knowledge-base root)'}, not of ${now.rootTopicId ?? '(knowledge-base root)'}`
    ]
  }
  const changes: string[] = []
  const documents = differing(saved.documents, now.documents)
  if (documents.length > 0) changes.push(`the folder changed since the plan: ${listed(documents)}`)
  if (saved.assets !== now.assets) changes.push('the files the documents use changed since the plan')
  const items = differing(saved.items, now.items)
  if (items.length > 0)
    changes.push(
      `the knowledge base changed since the plan (edited, moved, created or deleted on the platform): item ${listed(items)}`
    )
  if (saved.state !== now.state)
    changes.push('the sync state (.kbsync/state.json) changed since the plan: another push or pull ran')
  return changes
}

/**
 * `plan` with its fingerprint, computed once from the inputs it was made from
 * (a plan `planPush` made in this process): only a plan printed as JSON or
 * checked against a saved one needs it, so planning (watch, status) does not
 * hash every document and item. Returns `plan`.
 */
export function fingerprinted(plan: PushPlan): PushPlan {
  if (!plan.fingerprint) {
    const {scan, remote, state} = contextOf(plan)
    plan.fingerprint = planFingerprint(scan, remote, state)
  }
  return plan
}

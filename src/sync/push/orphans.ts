/**
 * Remote items under the root that no local document maps to, and which of
 * them `--prune` may delete: only what kbsync created or matched, and a
 * topic only when everything inside it may go too.
 */
import type {ScanResult, SyncState} from '../../local/index.js'
import type {RemoteSnapshot} from '../shared/remote.js'
import type {Orphan, OrphanMode, PlanOptions} from '../shared/types.js'
import {foldRemote} from './remote-fold.js'

/** What becomes of orphans: `onOrphan`, else `delete` with `prune` (its older name), else `keep`. */
export function orphanModeOf(options: Pick<PlanOptions, 'prune' | 'onOrphan'>): OrphanMode {
  return options.onOrphan ?? (options.prune === true ? 'delete' : 'keep')
}

/** Remote items under the root that no local document maps to. */
export function findOrphans(
  remote: RemoteSnapshot,
  ids: Map<string, string>,
  state: SyncState,
  scan: ScanResult
): Orphan[] {
  const mapped = new Set(ids.values())
  const known = new Map<string, string>()
  // Only items of the tree just read under the root: a state entry is a claim, never proof the folder owns an item.
  const inTree = (id: string | undefined): id is string => id !== undefined && Object.hasOwn(remote.items, id)
  for (const [key, entry] of Object.entries(state.items))
    if (inTree(entry.id) && !(key in scan.byPath)) known.set(entry.id, key)
  for (const [key, entry] of Object.entries(state.items))
    if (inTree(entry.id) && key in scan.byPath && ids.get(key) !== entry.id) known.set(entry.id, key)
  const orphans: Orphan[] = []
  // A topic is prunable only if everything inside it is prunable too (never delete what kbsync does not own).
  foldRemote<boolean>(remote, {
    leave(id, children) {
      const item = remote.items[id]!
      if (mapped.has(id)) return false
      const statePath = known.get(id)
      const prunable = statePath !== undefined && children.every(Boolean)
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
  })
  return orphans
}

/** Deletions children first, so a topic is empty when its turn comes. */
export function orderDeletions(prunable: Orphan[], remote: RemoteSnapshot): Orphan[] {
  // Each item's depth once, from its parent's (walking up from every item of a chain was its length squared).
  const depths = new Map<string, number>()
  const depth = (id: string): number => {
    const up: string[] = []
    let at: string | null | undefined = id
    while (at && remote.items[at] && !depths.has(at)) {
      up.push(at)
      at = remote.items[at]!.parentId
    }
    let d = at && depths.has(at) ? depths.get(at)! : -1
    for (const item of up.reverse()) depths.set(item, ++d)
    return depths.get(id) ?? 0
  }
  const order = new Map(prunable.map((orphan) => [orphan.remoteId, depth(orphan.remoteId)]))
  return [...prunable].sort((a, b) => order.get(b.remoteId)! - order.get(a.remoteId)!)
}

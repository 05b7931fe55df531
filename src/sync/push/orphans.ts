/**
 * Remote items under the root that no local document maps to, and which of
 * them `--prune` may delete: only what kbsync created or matched, and a
 * topic only when everything inside it may go too.
 */
import type {ScanResult, SyncState} from '../../local/index.js'
import type {RemoteSnapshot} from '../shared/remote.js'
import type {Orphan, OrphanMode, PlanOptions} from '../shared/types.js'

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
export function orderDeletions(prunable: Orphan[], remote: RemoteSnapshot): Orphan[] {
  const depth = (id: string): number => {
    let d = 0
    for (
      let parent = remote.items[id]?.parentId;
      parent && remote.items[parent];
      parent = remote.items[parent]!.parentId
    )
      d++
    return d
  }
  return [...prunable].sort((a, b) => depth(b.remoteId) - depth(a.remoteId))
}

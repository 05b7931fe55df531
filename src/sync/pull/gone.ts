/**
 * The documents whose item is gone from the platform: a deletion to pull,
 * or a conflict when the file was edited locally since the last sync (the
 * file is kept).
 */
import {type ScanResult, type SyncState} from '../../local/index.js'
import {type RemoteSnapshot} from '../shared/remote.js'
import {fileOfNode} from '../shared/document-layout.js'
import {classify, editedLocally, sideState} from '../shared/compare.js'
import type {PullOp} from './plan.js'

/** Documents whose item is gone from the platform: deleted, or a conflict when edited locally since. */
export function goneFromRemote(remote: RemoteSnapshot, state: SyncState, scan: ScanResult): PullOp[] {
  const ops: PullOp[] = []
  for (const [key, entry] of Object.entries(state.items)) {
    if (!entry.id || remote.items[entry.id] || entry.pending === 'create') continue
    const node = scan.byPath[key]
    if (!node || node.path === '') continue
    const base = {
      path: key,
      from: key,
      file: fileOfNode(scan, key, entry.type),
      id: entry.id,
      type: entry.type,
      title: entry.title
    }
    if (classify({base: true, local: sideState(true, editedLocally(node, entry)), remote: 'absent'}) === 'conflict') {
      // Nothing is lost, but the next push brings the item back under a new id: the user decides, told how.
      const reason = `deleted on the platform, edited locally: the file is kept, and the next push creates it again as a new ${entry.type}; delete the file to accept the deletion, or push to keep it`
      ops.push({op: 'conflict', ...base, reason})
    } else {
      ops.push({op: 'delete', ...base, reason: 'deleted on the platform'})
    }
  }
  return ops
}

/**
 * The render context a plan (push's, pull's adoption, matching) renders
 * bodies with: ids from the matching, file URLs the sync state knows.
 */
import type {ScanResult, SyncState} from '../../local/index.js'
import type {RemoteSnapshot} from './remote.js'
import type {RenderContext} from './render.js'

/** A render context from the matching and the state's known file URLs. */
export function planRenderContext(
  scan: ScanResult,
  remote: RemoteSnapshot,
  ids: Map<string, string>,
  state: SyncState
): RenderContext {
  const hashes = new Map(Object.values(scan.assets).map((asset) => [asset.path, asset.sha256]))
  return {
    idOf: (target) => ids.get(target),
    rootTopicId: remote.rootTopicId,
    hashOf: (file) => hashes.get(file),
    fileRef: (sha) => state.assets[sha]?.url
  }
}

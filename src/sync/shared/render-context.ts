/**
 * The render context a plan (push's, pull's adoption, matching) renders
 * bodies with: ids from the matching, file URLs the sync state knows.
 */
import {assetHashesByPath, type ScanResult, type SyncState} from '../../local/index.js'
import type {RemoteSnapshot} from './remote.js'
import type {RenderContext} from './render.js'
import type {NoticeSettings} from './notice.js'

/** A render context from the matching and the state's known file URLs. */
export function planRenderContext(
  scan: ScanResult,
  remote: RemoteSnapshot,
  ids: Map<string, string>,
  state: SyncState,
  notice?: NoticeSettings
): RenderContext {
  const hashes = assetHashesByPath(scan.assets)
  return {
    idOf: (target) => ids.get(target),
    rootTopicId: remote.rootTopicId,
    hashOf: (file) => hashes.get(file),
    fileRef: (sha) => state.assets[sha]?.url,
    ...(notice ? {notice} : {})
  }
}

/**
 * The files the state records, indexed once for a pull: by URL (the
 * content each URL was recorded with: the early downloads skip a URL the
 * folder may hold, the apply step defers one whose copy is elsewhere) and
 * by the file's key (`fileKey`: a record read after the server moved is
 * given the URLs the state knows). Each table is made on its first use,
 * from the state as it is then: before the pull records any file (a no-op
 * pull reads no record and makes no key table).
 */
import type {SyncState} from '../../local/index.js'
import {fileKey} from './file-keys.js'

/** The state's files of one pull, by URL and by key. */
export interface StateAssets {
  /** The content (`sha256`) the state records for each file URL. */
  shaByUrl(): ReadonlyMap<string, string>
  /** The URL the state records for each file key (the first record of a key wins). */
  urlByKey(): ReadonlyMap<string, string>
}

/** The index of the files `state` records. */
export function stateAssets(state: SyncState): StateAssets {
  let byUrl: Map<string, string> | undefined
  let byKey: Map<string, string> | undefined
  return {
    shaByUrl() {
      if (byUrl) return byUrl
      byUrl = new Map()
      for (const [sha, asset] of Object.entries(state.assets)) if (asset.url !== undefined) byUrl.set(asset.url, sha)
      return byUrl
    },
    urlByKey() {
      if (byKey) return byKey
      byKey = new Map()
      for (const url of this.shaByUrl().keys()) {
        const key = fileKey(url)
        if (!byKey.has(key)) byKey.set(key, url)
      }
      return byKey
    }
  }
}

/**
 * Downloads started while records are still being read: a file a pulled
 * body uses, of which the state knows no copy, is downloaded whatever the
 * plan says about its document (the apply step would download it anyway),
 * into `.kbsync/downloads/`, which is no place of the folder contract. The
 * apply step moves each into place once the pull was planned and checked,
 * so nothing the user sees is written before that; a download that is not
 * used (its document turned out a conflict) is removed with the folder.
 */
import {existsSync, renameSync, rmdirSync} from 'node:fs'
import path from 'node:path'
import {pathToWriteInside, removeInside} from '../../local/index.js'
import type {RemoteDetail} from '../shared/remote.js'
import type {PullClient} from './types.js'
import type {StateAssets} from './state-assets.js'

/** Where early downloads wait, relative to the folder. */
export const downloadsFolder = '.kbsync/downloads'

/** A download started early: its file once it arrived, or why it failed. */
type Fetched = {file: string} | {error: unknown}

/** Early downloads of one pull. */
export interface Prefetch {
  /** Starts (through `start`) the download of each of `urls` listed by `detail` that the state holds no copy of. */
  request(detail: RemoteDetail, urls: readonly string[], start: (task: () => Promise<void>) => void): void
  /** The download function of the apply step: moves a file fetched early into place (or fails as its download did); else downloads. */
  download(url: string, destPath: string, expected?: {name?: string; size?: number}): Promise<unknown>
  /** Removes what was downloaded early and not taken. */
  clear(): void
}

/** Downloads nothing early (a dry run, or a pull that reads no records). */
export function noPrefetch(client: PullClient): Prefetch {
  return {
    request: () => undefined,
    download: (url, destPath, expected) => client.downloadFile(url, destPath, expected),
    clear: () => undefined
  }
}

/** Early downloads into `dir`'s `.kbsync/downloads/` through `client`, of files the state (its files: `assets`) does not record. */
export function createPrefetch(dir: string, assets: StateAssets, client: PullClient): Prefetch {
  // A URL the state knows may already be on disk (the apply step checks the file's content): only new URLs are fetched early.
  const known = assets.shaByUrl()
  const fetched = new Map<string, Promise<Fetched>>()
  // A pull refused or with nothing to keep leaves no `.kbsync/` behind that it made only for early downloads.
  const stateFolder = path.join(dir, path.dirname(downloadsFolder))
  const hadStateFolder = existsSync(stateFolder)
  let count = 0
  return {
    request(detail, urls, start) {
      const listed = new Map(detail.files.map((file) => [file.url, file]))
      for (const url of urls) {
        const listing = listed.get(url)
        if (!listing || known.has(url) || fetched.has(url)) continue
        let settle: (outcome: Fetched) => void = () => undefined
        fetched.set(url, new Promise<Fetched>((resolve) => (settle = resolve)))
        // The process id in the name: two runs in one folder do not share a name, and the next run removes a killed one's (`stale-temp.ts`).
        const file = pathToWriteInside(dir, `${downloadsFolder}/${process.pid}.${count++}`)
        start(async () => {
          try {
            await client.downloadFile(url, file, {name: listing.name, size: listing.size})
            settle({file})
          } catch (error) {
            // Reported where the apply step would have downloaded it (`download-failed`); the pull goes on.
            settle({error})
          }
        })
      }
    },
    async download(url, destPath, expected) {
      const early = fetched.get(url)
      if (early === undefined) return client.downloadFile(url, destPath, expected)
      fetched.delete(url)
      const outcome = await early
      if ('error' in outcome) throw outcome.error
      renameSync(outcome.file, destPath)
    },
    clear() {
      removeInside(dir, downloadsFolder)
      if (!hadStateFolder) removeIfEmpty(stateFolder)
    }
  }
}

/** Removes the folder `absolute` when it is empty (a folder the pull wrote state into is kept). */
function removeIfEmpty(absolute: string): void {
  try {
    rmdirSync(absolute)
  } catch {
    // Not empty, or gone: either way nothing to do.
  }
}

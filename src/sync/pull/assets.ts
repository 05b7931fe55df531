/**
 * Files a pulled body uses: each image or attachment an article lists is
 * downloaded once, into `_assets/<document name>/` beside the document that
 * lists it, and recorded in the sync state by content (so push references its
 * URL and never uploads it again). A URL whose content another URL already
 * holds stays a URL in the body: one content maps to one URL in the state.
 */
import {lstat} from 'node:fs/promises'
import path from 'node:path'
import {hashFile, pathToWriteInside, type SyncState} from '../../local/index.js'
import type {RemoteDetail} from '../shared/remote.js'
import {folderOf} from '../shared/document-layout.js'
import {assignNames} from '../shared/names.js'

/** A file to have on disk. */
export interface AssetPlan {
  url: string
  /** Repo-relative path of the local copy. */
  path: string
  guid: string
  /** What the item's record says of the file: its name and size (a download must match them). */
  expected: {name: string; size?: number}
  /** The document that lists the file: its id and path. */
  ownerId: string
  ownerPath: string
}

/** The folder that holds the files of the document file `file`. */
export function assetsFolder(file: string): string {
  const folder = folderOf(file)
  const stem = path.posix.basename(file, '.md')
  return folder === '' ? `_assets/${stem}` : `${folder}/_assets/${stem}`
}

/**
 * Plans the local copies of the files that the bodies use (`urls`: their
 * file URLs, `fileUrls`) and their documents list (`files`), first lister (in path order) wins (pure). URLs `skip`
 * says are not wanted as files (Mermaid diagrams the folder gives back as
 * their blocks) are not planned.
 */
export function planAssets(
  documents: ReadonlyArray<{
    id: string
    path: string
    file: string
    urls: readonly string[]
    files: RemoteDetail['files']
  }>,
  skip?: (url: string) => boolean
): Map<string, AssetPlan> {
  const plans = new Map<string, AssetPlan>()
  for (const document of [...documents].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))) {
    const used = new Set(document.urls.filter((url) => !skip?.(url)))
    const files = document.files.filter((file) => used.has(file.url) && !plans.has(file.url))
    if (files.length === 0) continue
    const names = assignNames(
      files.map((file) => ({id: file.url, kind: 'topic' as const, ...splitExtension(file.name)}))
    )
    const folder = assetsFolder(document.file)
    for (const file of files) {
      plans.set(file.url, {
        url: file.url,
        path: `${folder}/${names.get(file.url)!}`,
        guid: file.guid,
        expected: {name: file.name, ...(typeof file.size === 'number' ? {size: file.size} : {})},
        ownerId: document.id,
        ownerPath: document.path
      })
    }
  }
  return plans
}

/** A file name as a title and a safe extension (kept apart so ` (2)` goes before the extension). */
export function splitExtension(name: string): {title: string; extension: string} {
  const extension = path.posix.extname(name)
  return /^\.[\p{L}\p{N}_-]{1,16}$/u.test(extension) && name.length > extension.length
    ? {title: name.slice(0, -extension.length), extension}
    : {title: name, extension: ''}
}

/** sha256 of a file's bytes, or undefined when it does not exist. */
export async function fileHash(absolute: string): Promise<string | undefined> {
  try {
    return (await hashFile(absolute)).sha256
  } catch {
    return undefined
  }
}

/**
 * Makes sure the planned copy of one file is on disk and recorded in
 * `state.assets`; returns whether the body may reference the local copy
 * (false when another URL already holds the same content). A copy is
 * fetched again when the state records other content for it, or when its
 * size is not the one the item's record lists (a proxy's page an older
 * kbsync saved, a file cut short on disk): the download is checked against
 * the record, so what lands matches it. A copy that is not on disk is left
 * for later (`deferred`) when `defer` says so.
 */
export async function fetchAsset(
  dir: string,
  asset: AssetPlan,
  state: SyncState,
  download: Download,
  defer?: (asset: AssetPlan) => boolean
): Promise<{local: boolean; downloaded: boolean; deferred?: true}> {
  const absolute = path.join(dir, asset.path)
  let sha = await fileHash(absolute)
  let downloaded = false
  if (sha === undefined && defer?.(asset)) return {local: true, downloaded, deferred: true}
  if (sha === undefined || state.assets[sha]?.url !== asset.url || !(await sizeMatches(absolute, asset))) {
    // The download writes a temporary file beside the real path it is given and renames it over: nothing follows a link out of the folder.
    const destination = pathToWriteInside(dir, asset.path)
    await download(asset.url, destination, asset.expected)
    downloaded = true
    // The content the state recorded for this URL before was not the file (a wrong size): that record goes.
    if (sha !== undefined && state.assets[sha]?.url === asset.url) delete state.assets[sha]
    sha = (await fileHash(destination))!
  }
  const known = state.assets[sha]
  if (known?.url !== undefined && known.url !== asset.url) return {local: false, downloaded}
  state.assets[sha] = {guid: asset.guid, url: asset.url, articleId: asset.ownerId, usedBy: asset.ownerPath}
  return {local: true, downloaded}
}

/** The download function of a pull: the file at `url` into `destPath`, checked against `expected`. */
export type Download = (url: string, destPath: string, expected: AssetPlan['expected']) => Promise<unknown>

/** Whether the file at `absolute` has the size the record lists (true when the record lists none). */
async function sizeMatches(absolute: string, asset: AssetPlan): Promise<boolean> {
  if (asset.expected.size === undefined) return true
  const info = await lstat(absolute).catch(() => undefined)
  return info !== undefined && info.size === asset.expected.size
}

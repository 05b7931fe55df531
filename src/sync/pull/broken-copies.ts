/**
 * Copies of files a pull saved wrong before downloads were checked (an
 * older kbsync took a gateway's HTML page, answered with a 200, for the
 * image, and recorded it as synced): such a copy is found on disk, and its
 * article is read again as if its files had not been downloaded
 * (`missingFiles`), so this pull compares the copy with the item's record
 * and fetches it again (`assets.ts`). Only the first bytes of each file in
 * those folders are read (and the whole of one that is such a page, to
 * find its record).
 */
import {closeSync, constants, type Dirent, openSync, readdirSync, readFileSync, readSync, realpathSync} from 'node:fs'
import {realpath} from 'node:fs/promises'
import path from 'node:path'
import {pageInPlaceOf} from '../../api/index.js'
import {isInside, sha256, type SyncState} from '../../local/index.js'
import {assetsFolder} from './assets.js'

/** Bytes read from the start of each copy. */
const headBytes = 512

/**
 * Marks (`missingFiles`) the state entries of articles whose copies on disk
 * (in the `_assets/` folder of each document the state's files are used by)
 * are an HTML page where a file of another kind is expected, and recorded
 * as a URL's content; returns how many were marked. The folders are named
 * by the state, which is data: one that is not inside `dir` (its real path)
 * is not read, and links are not followed.
 */
export async function markBrokenCopies(dir: string, state: SyncState): Promise<number> {
  const root = await realpath(dir).catch(() => undefined)
  if (root === undefined) return 0
  const folders = new Set<string>()
  for (const asset of Object.values(state.assets)) {
    if (asset.url !== undefined && asset.usedBy?.endsWith('.md')) folders.add(assetsFolder(asset.usedBy))
  }
  const broken = new Set<string>()
  for (const folder of folders)
    for (const sha of pagesIn(root, folder)) {
      const articleId = state.assets[sha]?.url !== undefined ? state.assets[sha]?.articleId : undefined
      if (articleId !== undefined) broken.add(articleId)
    }
  let marked = 0
  for (const entry of Object.values(state.items)) {
    if (entry.id !== undefined && broken.has(entry.id) && entry.missingFiles !== true) {
      entry.missingFiles = true
      marked++
    }
  }
  return marked
}

/**
 * The sha256 of each regular file directly in `folder` (relative to `root`) that is an HTML page in place of
 * another kind of file. Synchronous, as the scan reads: every pull looks at the head of every downloaded file,
 * and asynchronously that was five waits on the thread pool a file, one file after the other (7,500 for the
 * 1,500 images of a 30,000-article no-op pull).
 */
function pagesIn(root: string, folder: string): string[] {
  const absolute = path.resolve(root, folder)
  const real = realPathOf(absolute)
  if (real === undefined || real !== absolute || !isInside(root, real)) return []
  const pages: string[] = []
  for (const entry of entriesOf(real)) {
    if (!entry.isFile()) continue
    const file = path.join(real, entry.name)
    if (pageInPlaceOf(entry.name, head(file))) pages.push(sha256(readFileSync(file)))
  }
  return pages
}

function realPathOf(absolute: string): string | undefined {
  try {
    return realpathSync(absolute)
  } catch {
    return undefined
  }
}

function entriesOf(folder: string): Dirent[] {
  try {
    return readdirSync(folder, {withFileTypes: true})
  } catch {
    return []
  }
}

/** The first bytes of the file at `absolute`, not followed if it became a link, not waited on if it became a FIFO (none when it cannot be read). */
function head(absolute: string): Uint8Array {
  let fd: number
  try {
    fd = openSync(absolute, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch {
    return new Uint8Array()
  }
  try {
    const buffer = Buffer.alloc(headBytes)
    return buffer.subarray(0, readSync(fd, buffer, 0, headBytes, 0))
  } catch {
    return new Uint8Array()
  } finally {
    closeSync(fd)
  }
}

/**
 * Folders of the synced folder already proven real, so that a write deep in
 * a folder chain does not look at every level above it again (`inside.ts`
 * walked each level with lstat on every write: depth^2 per write, cubic over
 * a chain). A folder is remembered only when it was reached from the real
 * root through real folders alone (no link on the way); its real path is
 * then the root's real path joined with its levels.
 *
 * A remembered folder is never trusted as such: before each use it is
 * opened (O_NOFOLLOW, O_DIRECTORY) and the kernel is asked which path it
 * opened (`/proc/self/fd`). The same path means every level is still a real
 * folder: a level swapped for a link since, or moved away and linked back,
 * gives another path and the write walks from the root again, where the
 * rules of `inside.ts` refuse or follow the link. Three system calls on the
 * whole path (O(depth) in the kernel), where the walk made one per level.
 * Where the kernel does not answer that way, `realpath` decides (correct,
 * slower on deep paths).
 */
import {realpathSync} from 'node:fs'
import path from 'node:path'
import {openedFolderPath} from '../trust/index.js'

/** Beyond this many folders of one root, the memo starts again (it is a shortcut, never a record). */
const limit = 100_000

const proven = new Map<string, Set<string>>()

/** Records that the folder `rel` (its levels joined by `/`) of the real folder `root` was reached through real folders only. */
export function rememberRealFolder(root: string, rel: string): void {
  let folders = proven.get(root)
  if (folders === undefined) proven.set(root, (folders = new Set()))
  if (folders.size >= limit) folders.clear()
  folders.add(rel)
}

/**
 * How many of the levels `parts` under the real folder `root` are proven
 * real folders now: all of them, all but the last, or none (the caller
 * walks from the root). Only the two deepest are tried, so a miss costs no
 * more than the walk it falls back to.
 */
export function provenLevels(root: string, parts: readonly string[]): number {
  const folders = proven.get(root)
  if (folders === undefined || parts.length === 0) return 0
  for (let levels = parts.length; levels >= 1 && levels >= parts.length - 1; levels--) {
    const rel = parts.slice(0, levels).join('/')
    if (!folders.has(rel)) continue
    if (stillReal(path.join(root, rel))) return levels
    // Changed since it was proven: forget everything of this root, the walk proves again what still holds.
    folders.clear()
    return 0
  }
  return 0
}

/** Forgets every folder remembered (a test's reset; a run never needs it, each use is checked). */
export function forgetProvenFolders(): void {
  proven.clear()
}

/** Whether `dir` (an absolute path without links, as remembered) is a folder reached through real folders only. */
function stillReal(dir: string): boolean {
  const named = openedFolderPath(dir, true)
  if (named !== null) return named === dir
  try {
    return realpathSync.native(dir) === dir
  } catch {
    return false
  }
}

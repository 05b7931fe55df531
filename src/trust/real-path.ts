/**
 * A file's real path (every link resolved) at the cost of one lookup of the
 * whole path: glibc's `realpath` resolves level by level, each a lookup of
 * the prefix so far, so depth^2 in the kernel (260 ms a call at 1,500
 * levels; a push down a 600-level folder chain spent 17 of its 23 s there).
 *
 * The name itself is looked at with lstat: a link there goes to `realpath`
 * as before. Otherwise its folder is opened (O_DIRECTORY: no device or FIFO
 * is ever opened here) and the kernel names the folder it opened
 * (`/proc/self/fd`). Where it does not (another system, a folder gone
 * meanwhile), `realpath` answers. The callers check what they found again
 * at open time, as they did after `realpath`.
 */
import {closeSync, constants, lstatSync, openSync, readlinkSync, realpathSync} from 'node:fs'
import path from 'node:path'

/** The real path of `file` (resolved from the working folder); throws as `realpath` does when it is not there. */
export function realPathSync(file: string): string {
  const absolute = path.resolve(file)
  const parent = path.dirname(absolute)
  if (parent === absolute || lstatSync(absolute).isSymbolicLink()) return realpathSync.native(absolute)
  const folder = openedFolderPath(parent)
  return folder ? path.join(folder, path.basename(absolute)) : realpathSync.native(absolute)
}

/**
 * The path the kernel names for the folder `dir` once opened (`noFollow`:
 * not through a link at its last level): undefined when it cannot be opened
 * or was removed meanwhile, null when the kernel will not say (no
 * `/proc/self/fd`).
 */
export function openedFolderPath(dir: string, noFollow = false): string | null | undefined {
  let fd: number
  try {
    fd = openSync(dir, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (noFollow ? constants.O_NOFOLLOW : 0))
  } catch {
    return undefined
  }
  try {
    const named = readlinkSync(`/proc/self/fd/${fd}`)
    // A folder removed since it was opened is named "... (deleted)".
    if (named.endsWith(' (deleted)')) return undefined
    return path.isAbsolute(named) ? named : null
  } catch {
    return null
  } finally {
    closeSync(fd)
  }
}

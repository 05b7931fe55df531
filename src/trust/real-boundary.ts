/**
 * The real path of a read's or write's boundary (the synced folder, the repository),
 * found once and not at every read: a push or pull reads tens of thousands
 * of files inside the same folder, and each read asked `realpath` for it
 * again (a lookup per level of the path; through the thread pool, for the
 * asynchronous reads).
 *
 * What the rule of `read.ts` needs of it is a path without links that is a
 * folder: each file's own real path is found afresh at each read and must
 * lie under it, so a folder of the boundary swapped for a link since it
 * was found can lead no read outside it (a real path never passes through
 * a link). The remembered path is still checked at each use, with one
 * `stat` of the boundary as named (and one of the real path, when they
 * differ): both must lead to the folder found (same device and inode),
 * else its real path is found again. So a long-lived process (watch,
 * preview) follows a boundary named through a link that now points
 * elsewhere, and a writer (`local/inside.ts`, which goes down level by
 * level from the real path) starts from the folder it names.
 */
import {realpathSync, statSync} from 'node:fs'
import path from 'node:path'

/** Beyond this many boundaries, the memo starts again (a process reads inside a few folders). */
const limit = 64

interface Found {
  real: string
  dev: number
  ino: number
}

const found = new Map<string, Found>()

/** Whether `info` is of the folder `known` was found at. */
function sameFolder(info: {dev: number; ino: number}, known: Found): boolean {
  return info.dev === known.dev && info.ino === known.ino
}

/** Whether the remembered real path still leads to the folder it led to (a writer goes down from it, `local/inside.ts`). */
function stillThere(known: Found, given: string): boolean {
  if (known.real === given) return true
  const info = statSync(known.real, {throwIfNoEntry: false})
  return info !== undefined && sameFolder(info, known)
}

/**
 * The real path of the folder `boundary` (resolved from the working
 * folder); throws as `realpath` does when it is not there (a boundary not
 * there is never remembered).
 */
export function realBoundary(boundary: string): string {
  const given = path.resolve(boundary)
  const known = found.get(given)
  const now = statSync(given, {throwIfNoEntry: false})
  if (known !== undefined && now !== undefined && sameFolder(now, known) && stillThere(known, given)) return known.real
  const real = realpathSync.native(given)
  if (now === undefined) return real
  if (found.size >= limit) found.clear()
  found.set(given, {real, dev: now.dev, ino: now.ino})
  return real
}

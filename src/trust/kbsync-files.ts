/**
 * Reading kbsync's own files in the synced folder (`.kbsync/state.json`,
 * `state.journal`, `body-cache.json`, `link-cache.json`): the read rule of
 * `read.ts` with the folder as the boundary. A repository may carry any of
 * them as a symbolic link to a file of the user's (`~/.ssh/id_ed25519`), a
 * FIFO, or a file of gigabytes; none is followed out of the folder, opened
 * when it is not a regular file, or read past a bound.
 */
import {ReadRefusedError, readTextInside} from './read.js'

/** The most bytes kbsync reads of one of its files in `.kbsync/` (about 90,000 articles' state). */
export const kbsyncFileMaxBytes = 64 * 1024 * 1024

/**
 * The text of `rel` (relative to the synced folder `dir`), or undefined
 * when there is none. Throws a `ReadRefusedError` whose message says what
 * to do when the file is a link out of the folder, not a regular file, or
 * larger than `maxBytes`: for a file kbsync must not misread (the state).
 */
export async function readKbsyncFile(
  dir: string,
  rel: string,
  maxBytes = kbsyncFileMaxBytes
): Promise<string | undefined> {
  try {
    return await readTextInside(rel, {boundary: dir, maxBytes})
  } catch (error) {
    if (!(error instanceof ReadRefusedError)) throw error
    if (error.reason === 'missing') return undefined
    const fix =
      error.reason === 'too-large'
        ? 'remove it: kbsync then matches from scratch and writes a new one'
        : 'remove it, and kbsync writes a real file there'
    throw new ReadRefusedError(error.reason, error.file, `${error.message}; ${fix}`)
  }
}

/**
 * The text of the cache `rel` of `dir`, or undefined when there is none or
 * it may not be read (a link out of the folder, not a regular file, too
 * large): a cache is advisory, so it is simply not used, and the next write
 * (through `local/inside.ts`) replaces it or refuses the link by name.
 */
export async function readCacheFile(
  dir: string,
  rel: string,
  maxBytes = kbsyncFileMaxBytes
): Promise<string | undefined> {
  try {
    return await readTextInside(rel, {boundary: dir, maxBytes})
  } catch (error) {
    if (error instanceof ReadRefusedError) return undefined
    throw error
  }
}

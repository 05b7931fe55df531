/**
 * The base store, `.kbsync/bases/<sourceHash>`: the text of each document
 * file as it was at the last sync, by its `sourceHash`, gzipped. Pull's
 * round trip merges a web edit into a file edited since against it. It is a
 * cache, never an authority: a repository may carry the folder, so a base is
 * read through the trust rules of kbsync's own files (not through a link out
 * of the folder, not past a bound) and kept only when its text hashes to its
 * name. A missing or bad base is no base: the document is pulled as one
 * without (adopted when in sync, a conflict copy otherwise).
 */
import {lstatSync, readdirSync} from 'node:fs'
import path from 'node:path'
import {gunzipSync, gzipSync} from 'node:zlib'
import {readCacheFile} from '../trust/index.js'
import {existsInside, removeInside, writeFileInside} from './inside.js'
import {sourceHashOf} from './hash.js'
import {maxArticleBytes} from './article-limit.js'

/** The folder of the bases, relative to the synced folder. */
export const basesFolder = '.kbsync/bases'

/** The largest base kept, as text (an article the scan converts, with room for its front matter). */
export const maxBaseBytes = maxArticleBytes + 1048576

const hashName = /^[0-9a-f]{64}$/

function baseFile(hash: string): string {
  return `${basesFolder}/${hash}`
}

/**
 * The text whose `sourceHashOf` is `hash`, from the store of `dir`; undefined
 * when there is none, it may not be read, it is no gzip of at most
 * `maxBaseBytes`, or it does not hash to its name.
 */
export async function readBase(dir: string, hash: string): Promise<string | undefined> {
  if (!hashName.test(hash)) return undefined
  // Read as latin1 to keep the bytes: the file is gzip, not text.
  const packed = await readCacheFile(dir, baseFile(hash), maxBaseBytes).catch(() => undefined)
  if (packed === undefined) return undefined
  let text: string
  try {
    text = gunzipSync(Buffer.from(packed, 'base64'), {maxOutputLength: maxBaseBytes}).toString('utf8')
  } catch {
    return undefined
  }
  return sourceHashOf(text) === hash ? text : undefined
}

/** Whether the store of `dir` has an entry named `hash` (not read: `readBase` checks it when it is used). */
export function hasBase(dir: string, hash: string): boolean {
  return hashName.test(hash) && existsInside(dir, baseFile(hash))
}

/**
 * Stores `text` under its `sourceHashOf` (`hash`, when the caller has it) in
 * the store of `dir`, unless a base is there already (as `stored`, a
 * listing of the store, says when given) or it is too large.
 */
export function storeBase(dir: string, text: string, hash = sourceHashOf(text), stored?: ReadonlySet<string>): void {
  if (Buffer.byteLength(text) > maxBaseBytes) return
  const file = baseFile(hash)
  if (stored ? stored.has(hash) : existsInside(dir, file)) return
  writeFileInside(dir, file, gzipSync(Buffer.from(text, 'utf8')).toString('base64'))
}

/**
 * The names of the bases stored in `dir`, listed at once (a run that checks
 * thousands of entries pays one listing, not a check of each file's path);
 * none when there is no store yet (a first pull); undefined when `.kbsync`
 * or its bases are no real folders of `dir` (never listed through a link)
 * or cannot be listed.
 */
export function listBases(dir: string): Set<string> | undefined {
  try {
    for (const folder of ['.kbsync', basesFolder]) {
      const info = lstatSync(path.join(dir, folder), {throwIfNoEntry: false})
      if (info === undefined) return new Set()
      if (!info.isDirectory()) return undefined
    }
    return new Set(readdirSync(path.join(dir, basesFolder)))
  } catch {
    return undefined
  }
}

/** Removes the bases of `dir` (listed in `stored`, when the caller has them) that no hash of `keep` names (the state's entries of every target). */
export function pruneBases(
  dir: string,
  keep: ReadonlySet<string>,
  stored: ReadonlySet<string> | undefined = listBases(dir)
): void {
  for (const name of stored ?? []) if (!keep.has(name)) removeInside(dir, `${basesFolder}/${name}`)
}

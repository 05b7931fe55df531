/**
 * Scanning a folder again and again (the preview's and watch's loop) at the
 * cost of what changed: each scan is a full `scanFolder`, but the per-file
 * steps (reading a file, reading a document's head, converting a body,
 * hashing a local file) reuse the last scan's result for every file whose
 * content did not change. What is cheap and depends on the whole tree (the
 * walk, the layout, navigation, titles, link resolution, validation) is
 * derived afresh, so the result is exactly a fresh scan's.
 */
import {statSync} from 'node:fs'
import path from 'node:path'
import type {BodyFacts} from './body-cache.js'
import {readDocumentHead, type DocumentHead} from './body.js'
import type {Diagnostic} from './diagnostic.js'
import {hashFile, type FileHash} from './hash.js'
import {scanFolder, type ScanOptions} from './scan.js'
import {readFiles, readTextFile} from './text.js'
import {walkFolder, type WalkedDir} from './walk.js'
import type {ScanReuse} from './scan-reuse.js'
import type {ScanResult} from './types.js'

/** Scans one folder repeatedly, reusing what unchanged files gave. */
export interface Rescanner {
  /**
   * Scans the folder. `changed` names the paths (files or folders, relative
   * with `/`) changed since the last scan: they are read again whatever
   * their size and time say. Every other file is read again when its size
   * or modification time moved.
   */
  scan(changed?: readonly string[]): Promise<ScanResult>
}

/** The options of the scans (`scanFolder`'s, less what the rescanner decides itself). */
export type RescanOptions = Omit<ScanOptions, 'reuse' | 'cache' | 'skipBodies'>

/** A file's identity on disk: when either moved, the content may have. */
interface Stamp {
  size: number
  mtimeMs: number
}

/** A map that forgets, after each scan, the entries the scan did not use. */
class Kept<V> {
  #entries = new Map<string, V>()
  #used = new Set<string>()

  get(key: string): V | undefined {
    const value = this.#entries.get(key)
    if (value !== undefined) this.#used.add(key)
    return value
  }

  set(key: string, value: V): void {
    this.#entries.set(key, value)
    this.#used.add(key)
  }

  delete(key: string): void {
    this.#entries.delete(key)
  }

  keys(): IterableIterator<string> {
    return this.#entries.keys()
  }

  /** Drops what the scan just ended did not use. */
  sweep(): void {
    for (const key of this.#entries.keys()) if (!this.#used.has(key)) this.#entries.delete(key)
    this.#used.clear()
  }
}

/** Starts a rescanner of `dir`; its first scan reads everything. */
export function createRescanner(dir: string, options: RescanOptions = {}): Rescanner {
  const files = new Kept<Stamp & {bytes: Uint8Array}>()
  const hashes = new Kept<Stamp & {hashed: FileHash}>()
  const heads = new Kept<{text: string; head: DocumentHead; diagnostics: Diagnostic[]}>()
  const bodies = new Kept<BodyFacts>()
  const walks = lastWalk()
  const reuse: ScanReuse = {
    readFiles: (root, relatives) => readFiles(root, relatives, (absolute) => readStamped(absolute, files)),
    readHead(text, file, diagnostics) {
      const known = heads.get(file)
      if (known?.text === text) {
        // The head's problems are said again, as a fresh scan says them.
        for (const diagnostic of known.diagnostics) diagnostics.push({...diagnostic})
        return known.head
      }
      const found: Diagnostic[] = []
      const head = readDocumentHead(text, file, found)
      heads.set(file, {text, head, diagnostics: found.map((d) => ({...d}))})
      diagnostics.push(...found)
      return head
    },
    bodies,
    walk: (root, rules, diagnostics) => walks.walk(root, rules, diagnostics),
    hashFile: (absolute) => hashChanged(absolute, hashes)
  }
  return {
    async scan(changed = []) {
      walks.keepFor(dir, changed)
      forgetChanged(dir, changed, files)
      forgetChanged(dir, changed, hashes)
      try {
        return await scanFolder(dir, {...options, reuse})
      } finally {
        for (const kept of [files, hashes, heads, bodies]) kept.sweep()
      }
    }
  }
}

/** Drops the files at or under the `changed` paths (relative to `dir`) from `kept`, whose keys are absolute paths. */
function forgetChanged(dir: string, changed: readonly string[], kept: Kept<unknown>): void {
  if (changed.length === 0) return
  const root = path.resolve(dir)
  const prefixes = changed.map((relative) => path.join(root, relative))
  for (const key of [...kept.keys()]) {
    // Keys are real paths: a folder reached through a link is covered by the stamp check instead.
    if (prefixes.some((prefix) => key === prefix || key.startsWith(prefix + path.sep))) kept.delete(key)
  }
}

/** Reads the file at `absolute`, taking its bytes from `kept` while its size and time held. */
function readStamped(absolute: string, kept: Kept<Stamp & {bytes: Uint8Array}>): Uint8Array {
  const {size, mtimeMs} = statSync(absolute)
  let entry = kept.get(absolute)
  if (entry?.size !== size || entry.mtimeMs !== mtimeMs)
    kept.set(absolute, (entry = {size, mtimeMs, bytes: readTextFile(absolute)}))
  return entry.bytes
}

/** `hashFile`, taking the hash of a file whose size and time held from `kept`. */
async function hashChanged(absolute: string, kept: Kept<Stamp & {hashed: FileHash}>): Promise<FileHash> {
  const {size, mtimeMs} = statSync(absolute)
  const entry = kept.get(absolute)
  if (entry?.size === size && entry.mtimeMs === mtimeMs) return entry.hashed
  const hashed = await hashFile(absolute)
  kept.set(absolute, {size: hashed.size, mtimeMs, hashed})
  return hashed
}

/**
 * The last walk of the folder, reused while the changes are only new
 * contents of files it listed (a save): the walk reads every folder, and
 * its result depends on names alone. A path it did not list, one no longer
 * a file, or no names at all: the folder is walked again (`.kbsyncignore`
 * is never listed: a change of the rules walks again too).
 */
function lastWalk(): {keepFor(dir: string, changed: readonly string[]): void; walk: ScanReuse['walk']} {
  let last: {walked: WalkedDir; diagnostics: Diagnostic[]; entries: Set<string>} | undefined
  let keep = false
  return {
    keepFor(dir, changed) {
      const entries = last?.entries
      keep =
        entries !== undefined &&
        changed.length > 0 &&
        changed.every((relative) => entries.has(relative) && isFile(path.join(dir, relative)))
    },
    async walk(root, rules, diagnostics) {
      if (last && keep) {
        for (const diagnostic of last.diagnostics) diagnostics.push({...diagnostic})
        return last.walked
      }
      const found: Diagnostic[] = []
      const walked = await walkFolder(root, rules, found)
      last = {walked, diagnostics: found.map((d) => ({...d})), entries: new Set(entriesOf(walked))}
      diagnostics.push(...found)
      return walked
    }
  }
}

/** The files a walk listed (documents and others), relative with `/`. */
function entriesOf(walked: WalkedDir): string[] {
  return [...walked.files, ...walked.others, ...walked.dirs.flatMap(entriesOf)]
}

function isFile(absolute: string): boolean {
  try {
    return statSync(absolute).isFile()
  } catch {
    return false
  }
}

/**
 * A cache file of a synced folder's `.kbsync/` that a scan reads instead of
 * parsing again (the body cache, the front matter cache). Such a file is
 * never an authority: what it says decides what is published, and a cloned
 * repository may carry it. So it is sealed with the user's key, kept outside
 * every repository (`trust/user-secret.ts`): a file this user's kbsync did
 * not write fails the seal and is ignored whole. It is advisory: missing,
 * corrupt, foreign or of another format (each release has its own), every
 * entry is made afresh; saved, it keeps only the entries the last scan used.
 */
import {writeFileInside} from './inside.js'
import {isSealed, readCacheFile, seal} from '../trust/index.js'

/** What one kind of cache file is. */
export interface CacheKind {
  /** The file, relative to the synced folder. */
  file: string
  /** What the seal is for (a seal of one kind is no seal of another). */
  purpose: string
  /** The format, with kbsync's version: a file of another format is not read. */
  format: string
  /** The field of the file that holds the entries. */
  field: string
}

/** The cache of one folder: read once, saved with only the entries the last scan used. */
export class SealedCache<T> {
  private readonly used = new Map<string, T>()
  private added = false

  private constructor(
    private readonly kind: CacheKind,
    /** The folder whose cache this is; undefined: a cache that is never saved. */
    private readonly dir: string | undefined,
    private readonly known: Record<string, T>
  ) {}

  /** Reads the cache of `kind` in `dir` (empty when absent, unreadable, unsealed or of another format). */
  static async load<T>(kind: CacheKind, dir: string): Promise<SealedCache<T>> {
    let entries: Record<string, T> = {}
    try {
      // Not through a link out of the folder, nor past a bound: such a cache is not read at all.
      const data = JSON.parse((await readCacheFile(dir, kind.file)) ?? 'null') as Record<string, unknown> | null
      const found = data?.[kind.field]
      // Parsed and written again, the entries give back the very text that was sealed: JSON.stringify is deterministic.
      if (data?.format === kind.format && found && typeof found === 'object' && sealedOver(kind, found, data.seal))
        entries = found as Record<string, T>
    } catch {
      // No cache yet, or not one this version can read: every entry is made afresh.
    }
    return new SealedCache(kind, dir, entries)
  }

  /** An empty cache that is never saved (for scans that must parse everything). */
  static none<T>(kind: CacheKind): SealedCache<T> {
    return new SealedCache<T>(kind, undefined, {})
  }

  /** The entry recorded under `key`, if any. */
  get(key: string): T | undefined {
    const entry = Object.hasOwn(this.known, key) ? this.known[key] : undefined
    if (entry) this.used.set(key, entry)
    return entry
  }

  /** Records `entry` under `key`. */
  set(key: string, entry: T): void {
    this.used.set(key, entry)
    this.added = true
  }

  /**
   * Writes the entries this scan used (temporary file + rename), when it
   * added any or dropped some; a failure is ignored (the cache is advisory).
   */
  save(): void {
    if (this.dir === undefined) return
    if (!this.added && this.used.size === Object.keys(this.known).length) return
    const entries = Object.fromEntries(this.used)
    const {format, purpose, field, file} = this.kind
    const data = {format, seal: seal(purpose, format + '\n' + JSON.stringify(entries)), [field]: entries}
    try {
      // Synchronous: the scan waits for it anyway, and each asynchronous step waited on the thread pool.
      writeFileInside(this.dir, file, JSON.stringify(data))
    } catch {
      // A read-only checkout still syncs; it only parses everything each run (and a `.kbsync` link out of the folder is refused by the state's own write).
    }
  }
}

function sealedOver(kind: CacheKind, entries: object, sealed: unknown): boolean {
  return isSealed(kind.purpose, kind.format + '\n' + JSON.stringify(entries), sealed)
}

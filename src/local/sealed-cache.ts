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
import {writeStreamedInside} from './state-writer.js'
import {isSealed, readCacheFile, sealParts} from '../trust/index.js'

/** The characters of a cache file's entries sealed at a time when it is read. */
const sealSlice = 1 << 20

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
      const text = await readCacheFile(dir, kind.file)
      if (text !== undefined) entries = (sealedEntries(kind, text) as Record<string, T> | undefined) ?? {}
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
   * The text goes entry by entry, twice (once through the seal, which heads
   * the file, then to the file): the references of 3,000 articles of 300
   * links make 64 MB of text, which as one string was copied three times
   * more (the seal's input, the file's text, its bytes) at the scan's peak.
   */
  save(): void {
    if (this.dir === undefined) return
    if (!this.added && this.used.size === Object.keys(this.known).length) return
    const {purpose, format, file} = this.kind
    const mac = sealParts(purpose, withFirst(format + '\n', entryTexts(this.used)))
    try {
      // Synchronous: the scan waits for it anyway, and each asynchronous step waited on the thread pool.
      writeStreamedInside(this.dir, file, withFirst(headOf(this.kind, mac), entryTexts(this.used), '}'))
    } catch {
      // A read-only checkout still syncs; it only parses everything each run (and a `.kbsync` link out of the folder is refused by the state's own write).
    }
  }
}

/**
 * The text a cache file starts with, before its entries: the object
 * `{format, seal, [field]: entries}` as `JSON.stringify` writes it.
 */
function headOf(kind: CacheKind, mac: string): string {
  return `{"format":${JSON.stringify(kind.format)},"seal":${JSON.stringify(mac)},${JSON.stringify(kind.field)}:`
}

/**
 * The entries of the cache file `text` when it is one `save` wrote for
 * `kind` and the seal holds. The seal is checked on the entries' text as
 * it lies in the file (parsing it and writing it again cost a second pass
 * over every entry), and exactly that text is parsed: a file of any other
 * shape (another key order, spacing, a field given twice) is not read.
 */
function sealedEntries(kind: CacheKind, text: string): unknown {
  const start = `{"format":${JSON.stringify(kind.format)},"seal":"`
  const mac = text.startsWith(start) ? text.slice(start.length, start.length + 64) : ''
  const head = headOf(kind, mac)
  if (!text.startsWith(head) || !text.endsWith('}')) return undefined
  const entries = text.slice(head.length, -1)
  if (!isSealed(kind.purpose, withFirst(kind.format + '\n', slicesOf(entries)), mac)) return undefined
  const found: unknown = JSON.parse(entries)
  return found !== null && typeof found === 'object' && !Array.isArray(found) ? found : undefined
}

/**
 * The text `JSON.stringify(Object.fromEntries(entries))` gives, entry by
 * entry (an entry with no JSON text left out, as there).
 */
function* entryTexts(entries: ReadonlyMap<string, unknown>): Generator<string> {
  let first = true
  for (const [key, entry] of entries) {
    const text = JSON.stringify(entry) as string | undefined
    if (text === undefined) continue
    yield (first ? '{' : ',') + JSON.stringify(key) + ':' + text
    first = false
  }
  yield first ? '{}' : '}'
}

/** `head`, the texts of `rest`, then `tail`. */
function* withFirst(head: string, rest: Iterable<string>, tail = ''): Generator<string> {
  yield head
  yield* rest
  if (tail) yield tail
}

/**
 * `text` in slices of about `sealSlice` characters (a slice of a string is
 * a view of it, not a copy), none ending between the two halves of a
 * surrogate pair: each slice is encoded to UTF-8 on its own.
 */
function* slicesOf(text: string): Generator<string> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + sealSlice)
    const last = text.charCodeAt(end - 1)
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++
    yield text.slice(at, end)
    at = end
  }
}

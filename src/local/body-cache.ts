/**
 * The body cache, `.kbsync/body-cache.json`: what parsing a body found (the
 * conversion's messages, the local references and the external URLs), keyed by a hash of the
 * file path and the body text. A scan reads an unchanged body from it
 * instead of parsing it again, which makes a no-op push and each watch save
 * cost O(changed files); the tree itself is parsed later only if the body
 * has to be rendered. The cache is advisory: a missing, corrupt or foreign
 * file is ignored, and any version change of kbsync starts it afresh.
 *
 * It is never an authority: what it says decides what is published (a
 * cached reference is what a link or image of the body resolves to), and a
 * cloned repository may carry the file. So the file is sealed with the
 * user's key, kept outside every repository (`trust/user-secret.ts`): a
 * file this user's kbsync did not write fails the seal and is ignored whole,
 * and every body is parsed from its source.
 */
import path from 'node:path'
import {writeFileInside} from './inside.js'
import type {ExternalUrl} from './external-urls.js'
import type {ConversionMessage} from './markdown.js'
import type {LocalRef} from './references.js'
import {kbsyncVersion} from '../version.js'
import {isSealed, readCacheFile, seal} from '../trust/index.js'

/** What parsing one body found. */
export interface BodyFacts {
  messages: ConversionMessage[]
  refs: LocalRef[]
  /** The external URLs, for the link checker. */
  urls: ExternalUrl[]
  /** The body converts to nothing (`blank-pages.ts`). */
  blank?: true
}

interface CacheFile {
  format: string
  /** The user's seal over the format and the bodies (as `JSON.stringify` writes them). */
  seal: string
  bodies: Record<string, BodyFacts>
}

// Any release may change what the conversion reports: a cache written by another version is not read.
// 2: a body's references include its Mermaid blocks (a cache of 1 would miss them).
// 3: a body's external URLs are kept too.
// 4: sealed with the user's key.
// 5: a body's references include its math and other diagram blocks.
// 6: a body that converts to nothing says so.
const format = `kbsync-body-cache/6 ${kbsyncVersion}`
const purpose = 'kbsync body cache'

const cacheFile = '.kbsync/body-cache.json'

/** Path of the body cache of the folder `dir`. */
export function bodyCachePath(dir: string): string {
  return path.join(dir, cacheFile)
}

/** The cache of one folder: read once, saved with only the entries the last scan used. */
export class BodyCache {
  private readonly used = new Map<string, BodyFacts>()
  private added = false

  private constructor(
    /** The folder whose cache this is; undefined: a cache that is never saved. */
    private readonly dir: string | undefined,
    private readonly known: Record<string, BodyFacts>
  ) {}

  /** Reads the cache of `dir` (empty when absent, unreadable or of another version). */
  static async load(dir: string): Promise<BodyCache> {
    let bodies: Record<string, BodyFacts> = {}
    try {
      // Not through a link out of the folder, nor past a bound: such a cache is not read at all.
      const data = JSON.parse((await readCacheFile(dir, cacheFile)) ?? 'null') as Partial<CacheFile> | null
      if (data === null) return new BodyCache(dir, bodies)
      // Unsealed, or sealed with another key: not written by this user's kbsync, whatever it says. (Parsed and
      // written again, the bodies give back the very text that was sealed: JSON.stringify is deterministic.)
      const sealed = (bodies: object) => isSealed(purpose, format + '\n' + JSON.stringify(bodies), data.seal)
      if (data.format === format && data.bodies && typeof data.bodies === 'object' && sealed(data.bodies))
        bodies = data.bodies
    } catch {
      // No cache yet, or not one this version can read: every body is parsed.
    }
    return new BodyCache(dir, bodies)
  }

  /** An empty cache that is never saved (for scans that must parse everything). */
  static none(): BodyCache {
    return new BodyCache(undefined, {})
  }

  /** The facts recorded for `key`, if any. */
  get(key: string): BodyFacts | undefined {
    const facts = Object.hasOwn(this.known, key) ? this.known[key] : undefined
    if (facts) this.used.set(key, facts)
    return facts
  }

  /** Records what parsing the body under `key` found. */
  set(key: string, facts: BodyFacts): void {
    this.used.set(key, facts)
    this.added = true
  }

  /**
   * Writes the entries this scan used (temporary file + rename), when it
   * added any or dropped some; a failure is ignored (the cache is advisory).
   */
  async save(): Promise<void> {
    if (this.dir === undefined) return
    if (!this.added && this.used.size === Object.keys(this.known).length) return
    const bodies = Object.fromEntries(this.used)
    const data: CacheFile = {format, seal: seal(purpose, format + '\n' + JSON.stringify(bodies)), bodies}
    try {
      // Synchronous: the scan waits for it anyway, and each asynchronous step waited on the thread pool.
      writeFileInside(this.dir, cacheFile, JSON.stringify(data))
    } catch {
      // A read-only checkout still syncs; it only parses every body each run (and a `.kbsync` link out of the folder is refused by the state's own write).
    }
  }
}

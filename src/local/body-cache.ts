/**
 * The body cache, `.kbsync/body-cache.json`: what parsing a body found (the
 * conversion's messages, the local references and the external URLs), keyed by a hash of the
 * file path and the body text. A scan reads an unchanged body from it
 * instead of parsing it again, which makes a no-op push and each watch save
 * cost O(changed files); the tree itself is parsed later only if the body
 * has to be rendered. The cache is advisory: a missing, corrupt or foreign
 * file is ignored, and any version change of kbsync starts it afresh.
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {writeFileInside} from './inside.js'
import type {ExternalUrl} from './external-urls.js'
import type {ConversionMessage} from './markdown.js'
import type {LocalRef} from './references.js'
import {kbsyncVersion} from '../version.js'

/** What parsing one body found. */
export interface BodyFacts {
  messages: ConversionMessage[]
  refs: LocalRef[]
  /** The external URLs, for the link checker. */
  urls: ExternalUrl[]
}

interface CacheFile {
  format: string
  bodies: Record<string, BodyFacts>
}

// Any release may change what the conversion reports: a cache written by another version is not read.
// 2: a body's references include its Mermaid blocks (a cache of 1 would miss them).
// 3: a body's external URLs are kept too.
const format = `kbsync-body-cache/3 ${kbsyncVersion}`

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
      const data = JSON.parse(await readFile(bodyCachePath(dir), 'utf8')) as Partial<CacheFile>
      if (data.format === format && data.bodies && typeof data.bodies === 'object') bodies = data.bodies
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
    const data: CacheFile = {format, bodies: Object.fromEntries(this.used)}
    try {
      // Synchronous: the scan waits for it anyway, and each asynchronous step waited on the thread pool.
      writeFileInside(this.dir, cacheFile, JSON.stringify(data))
    } catch {
      // A read-only checkout still syncs; it only parses every body each run (and a `.kbsync` link out of the folder is refused by the state's own write).
    }
  }
}

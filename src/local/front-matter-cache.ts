/**
 * The front matter cache, `.kbsync/front-matter-cache.json`: the facts of
 * each front matter block a scan read (title, `kb_id`, permissions, the
 * navigation and publishing keys), by the sha256 of the block's text. A scan
 * finds an unchanged block's facts there instead of parsing its YAML again:
 * a no-op pull or push over thousands of documents parses none. Keyed by the
 * text itself, an edit anywhere in the block (whatever the file's size or
 * time stamps) is a new key and is parsed; a block that had a problem is
 * never recorded, so its messages come from the parse, every run.
 *
 * Like the body cache, it is never an authority: what it says decides what
 * is published, and a cloned repository may carry the file. It is sealed
 * with the user's key (`trust/user-secret.ts`): a file this user's kbsync
 * did not write fails the seal and is ignored whole. Advisory: missing,
 * corrupt, foreign or of another version, every block is parsed.
 */
import {writeFileInside} from './inside.js'
import type {FrontMatterFacts, FrontMatterMemo} from './front-matter.js'
import {sha256} from './hash.js'
import {kbsyncVersion} from '../version.js'
import {isSealed, readCacheFile, seal} from '../trust/index.js'

interface CacheFile {
  format: string
  /** The user's seal over the format and the blocks (as `JSON.stringify` writes them). */
  seal: string
  blocks: Record<string, FrontMatterFacts>
}

// Any release may read front matter differently: a cache written by another version is not read.
const format = `kbsync-front-matter-cache/1 ${kbsyncVersion}`
const purpose = 'kbsync front matter cache'

/** The cache file, relative to the synced folder. */
export const frontMatterCacheFile = '.kbsync/front-matter-cache.json'

/** The front matter cache of one folder: read once, saved with only the blocks the last scan read. */
export class FrontMatterCache implements FrontMatterMemo {
  private readonly used = new Map<string, FrontMatterFacts>()
  private added = false

  private constructor(
    /** The folder whose cache this is. */
    private readonly dir: string,
    private readonly known: Record<string, FrontMatterFacts>
  ) {}

  /** Reads the cache of `dir` (empty when absent, unreadable, unsealed or of another version). */
  static async load(dir: string): Promise<FrontMatterCache> {
    let blocks: Record<string, FrontMatterFacts> = {}
    try {
      // Not through a link out of the folder, nor past a bound: such a cache is not read at all.
      const data = JSON.parse((await readCacheFile(dir, frontMatterCacheFile)) ?? 'null') as Partial<CacheFile> | null
      if (data === null) return new FrontMatterCache(dir, blocks)
      // Parsed and written again, the blocks give back the very text that was sealed: JSON.stringify is deterministic.
      const sealed = (found: object) => isSealed(purpose, format + '\n' + JSON.stringify(found), data.seal)
      if (data.format === format && data.blocks && typeof data.blocks === 'object' && sealed(data.blocks))
        blocks = data.blocks
    } catch {
      // No cache yet, or not one this version can read: every block is parsed.
    }
    return new FrontMatterCache(dir, blocks)
  }

  /** The facts recorded for the block `yaml`, if any. */
  get(yaml: string): FrontMatterFacts | undefined {
    const key = sha256(yaml)
    const facts = Object.hasOwn(this.known, key) ? this.known[key] : undefined
    if (facts) this.used.set(key, facts)
    return facts
  }

  /** Records the facts of the block `yaml`, parsed without a problem. */
  set(yaml: string, facts: FrontMatterFacts): void {
    this.used.set(sha256(yaml), facts)
    this.added = true
  }

  /**
   * Writes the blocks this scan read (temporary file + rename), when it
   * added any or dropped some; a failure is ignored (the cache is advisory).
   */
  save(): void {
    if (!this.added && this.used.size === Object.keys(this.known).length) return
    const blocks = Object.fromEntries(this.used)
    const data: CacheFile = {format, seal: seal(purpose, format + '\n' + JSON.stringify(blocks)), blocks}
    try {
      writeFileInside(this.dir, frontMatterCacheFile, JSON.stringify(data))
    } catch {
      // A read-only checkout still syncs; it only parses every block each run.
    }
  }
}

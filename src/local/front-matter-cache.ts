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
 * Sealed and advisory, as every cache of `sealed-cache.ts`.
 */
import type {FrontMatterFacts, FrontMatterMemo} from './front-matter.js'
import {sha256} from './hash.js'
import {SealedCache, type CacheKind} from './sealed-cache.js'
import {kbsyncVersion} from '../version.js'

// Any release may read front matter differently: a cache written by another version is not read.
const kind: CacheKind = {
  file: '.kbsync/front-matter-cache.json',
  purpose: 'kbsync front matter cache',
  format: `kbsync-front-matter-cache/1 ${kbsyncVersion}`,
  field: 'blocks'
}

/** Facts of blocks a pull just wrote, by the block's text, until a scan finds them (`handOverFrontMatter`). */
const handedOver = new Map<string, FrontMatterFacts>()

/**
 * Hands the next scan the facts of the block `yaml` (as `factsOfRecord`
 * found them for a block kbsync wrote): the check after a pull then parses
 * no YAML it wrote itself, and records the block as if it had. Keyed by the
 * block's text, as the cache is: facts handed over are true of any file
 * that holds it.
 */
export function handOverFrontMatter(yaml: string, facts: FrontMatterFacts): void {
  handedOver.set(yaml, facts)
}

/** The cache file, relative to the synced folder. */
export const frontMatterCacheFile = kind.file

/** The front matter cache of one folder, by the sha256 of each block's text. */
export class FrontMatterCache implements FrontMatterMemo {
  private constructor(private readonly cache: SealedCache<FrontMatterFacts>) {}

  /** Reads the cache of `dir` (empty when absent, unreadable, unsealed or of another version). */
  static async load(dir: string): Promise<FrontMatterCache> {
    return new FrontMatterCache(await SealedCache.load<FrontMatterFacts>(kind, dir))
  }

  /** The facts recorded for the block `yaml`, if any. */
  get(yaml: string): FrontMatterFacts | undefined {
    const key = sha256(yaml)
    const known = this.cache.get(key)
    if (known) return known
    const handed = handedOver.get(yaml)
    if (handed) this.cache.set(key, handed)
    return handed
  }

  /** Records the facts of the block `yaml`, parsed without a problem. */
  set(yaml: string, facts: FrontMatterFacts): void {
    this.cache.set(sha256(yaml), facts)
  }

  /** Writes the blocks this scan read, when it added any or dropped some. */
  save(): void {
    // The scan that found the blocks handed over is done with them (a block not found was rewritten since).
    handedOver.clear()
    this.cache.save()
  }
}

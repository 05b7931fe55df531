/**
 * The link cache, `.kbsync/link-cache.json` in the folder (beside the sync
 * state): each URL found OK, with the time. An OK result is trusted for a
 * while (24 h by default) so that CI runs do not request the same sites
 * again and again; a broken, unchecked or anchor-missing result is not kept,
 * and is checked again on every run, so a fix shows at once. Advisory like the
 * body cache: a missing or unreadable file is an empty cache.
 */
import path from 'node:path'
import {writeFileInside} from '../local/index.js'
import {readCacheFile} from '../trust/index.js'
import {isAnchorFragment} from './anchors.js'
import type {LinkOutcome, LinkTarget} from './types.js'

/** The cache file, relative to the folder. */
export const linkCacheFile = '.kbsync/link-cache.json'

const format = 'kbsync-link-cache/1'

interface CacheFile {
  format: string
  links: Record<string, LinkOutcome>
}

/** Path of the link cache of the folder `dir`. */
export function linkCachePath(dir: string): string {
  return path.join(dir, linkCacheFile)
}

/** The link cache of one folder. */
export class LinkCache {
  private constructor(
    /** The folder whose cache this is; undefined: nothing is read or saved. */
    private readonly dir: string | undefined,
    private readonly links: Record<string, LinkOutcome>
  ) {}

  /** Reads the cache of `dir` (empty when absent or unreadable). */
  static async load(dir: string): Promise<LinkCache> {
    let links: Record<string, LinkOutcome> = {}
    try {
      // Not through a link out of the folder, nor past a bound (trust/kbsync-files.ts): such a cache is not read.
      const data = JSON.parse((await readCacheFile(dir, linkCacheFile)) ?? 'null') as Partial<CacheFile>
      if (data.format === format && data.links && typeof data.links === 'object') links = data.links
    } catch {
      // No cache yet, or an unreadable one: every link is checked.
    }
    return new LinkCache(dir, links)
  }

  /** A cache that knows nothing and is never saved (`--no-cache`). */
  static none(): LinkCache {
    return new LinkCache(undefined, {})
  }

  /** The cached outcome of `target`, when it is OK, younger than `ttlMs` and was checked for every fragment asked now. */
  fresh(target: LinkTarget, now: number, ttlMs: number): LinkOutcome | undefined {
    const outcome = Object.hasOwn(this.links, target.url) ? this.links[target.url] : undefined
    if (!outcome || !isTrusted(outcome)) return undefined
    if (!(outcome.checkedAt <= now && now - outcome.checkedAt < ttlMs)) return undefined
    const checked = outcome.checkedAnchors ?? []
    if (target.fragments.some((fragment) => isAnchorFragment(fragment) && !checked.includes(fragment))) return undefined
    return {...outcome, cached: true}
  }

  /** Records what checking `url` found now: kept when `fresh` can return it, else forgotten (checked again next run). */
  set(url: string, outcome: LinkOutcome): void {
    if (!isTrusted(outcome)) {
      delete this.links[url]
      return
    }
    const {cached: _cached, ...stored} = outcome
    this.links[url] = stored
  }

  /** Writes the cache (temporary file + rename, never through a link out of the folder), dropping entries older than `ttlMs`. */
  save(now: number, ttlMs: number): void {
    if (this.dir === undefined) return
    const links: Record<string, LinkOutcome> = {}
    for (const url of Object.keys(this.links).sort()) {
      const outcome = this.links[url]!
      if (now - outcome.checkedAt < ttlMs) links[url] = outcome
    }
    writeFileInside(this.dir, linkCacheFile, JSON.stringify({format, links} satisfies CacheFile, null, 1) + '\n')
  }
}

/** Whether a cached `outcome` may stand for a new check: OK, with no anchor missing. */
function isTrusted(outcome: LinkOutcome): boolean {
  return outcome.status === 'ok' && !outcome.missingAnchors?.length
}

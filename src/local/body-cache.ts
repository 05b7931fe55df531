/**
 * The body cache, `.kbsync/body-cache.json`: what parsing a body found (the
 * conversion's messages, the local references and the external URLs), keyed by a hash of the
 * file path and the body text. A scan reads an unchanged body from it
 * instead of parsing it again, which makes a no-op push and each watch save
 * cost O(changed files); the tree itself is parsed later only if the body
 * has to be rendered. Sealed and advisory, as every cache of `sealed-cache.ts`.
 */
import path from 'node:path'
import type {ExternalUrl} from './external-urls.js'
import type {ConversionMessage} from './markdown.js'
import type {LocalRef} from './references.js'
import {SealedCache, type CacheKind} from './sealed-cache.js'
import {kbsyncVersion} from '../version.js'

/** What parsing one body found. */
export interface BodyFacts {
  messages: ConversionMessage[]
  refs: LocalRef[]
  /** The external URLs, for the link checker. */
  urls: ExternalUrl[]
  /** The body converts to nothing (`blank-pages.ts`). */
  blank?: true
}

// Any release may change what the conversion reports: a cache written by another version is not read.
// 2: a body's references include its Mermaid blocks (a cache of 1 would miss them).
// 3: a body's external URLs are kept too.
// 4: sealed with the user's key.
// 5: a body's references include its math and other diagram blocks.
// 6: a body that converts to nothing says so.
const kind: CacheKind = {
  file: '.kbsync/body-cache.json',
  purpose: 'kbsync body cache',
  format: `kbsync-body-cache/6 ${kbsyncVersion}`,
  field: 'bodies'
}

/** Path of the body cache of the folder `dir`. */
export function bodyCachePath(dir: string): string {
  return path.join(dir, kind.file)
}

/** The body cache of one folder, by body key. */
export type BodyCache = SealedCache<BodyFacts>

/** Reading the body cache. */
export const BodyCache = {
  /** Reads the cache of `dir` (empty when absent, unreadable, unsealed or of another version). */
  load: (dir: string): Promise<BodyCache> => SealedCache.load<BodyFacts>(kind, dir),
  /** An empty cache that is never saved (for scans that must parse everything). */
  none: (): BodyCache => SealedCache.none<BodyFacts>(kind)
}

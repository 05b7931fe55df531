/**
 * Keeping the base store (`local/base-store.ts`) in step with the state at
 * the end of a push or a pull: the text of every document whose state entry
 * names its file as it is now is stored (once per content), and the bases
 * no entry of any target names any more are removed.
 */
import path from 'node:path'
import {
  hasBase,
  listBases,
  maxBaseBytes,
  pruneBases,
  sourceHashOf,
  storeBase,
  type ScanResult,
  type SyncState
} from '../../local/index.js'
import {readTextInside} from '../../trust/index.js'

/** Every `sourceHash` the state file names, this target's and the others'. */
function namedHashes(state: SyncState): Set<string> {
  const hashes = new Set<string>()
  const targets = [state.items, ...Object.values(state.others ?? {}).map((other) => other.items)]
  for (const items of targets)
    for (const entry of Object.values(items)) if (entry.sourceHash) hashes.add(entry.sourceHash)
  return hashes
}

/** The text of the document at `key` of `scan` when it is what `hash` names (a topic's file is read again). */
async function textOf(scan: ScanResult, key: string, hash: string): Promise<string | undefined> {
  const node = scan.byPath[key]
  if (!node || node.sourceHash !== hash) return undefined
  if (node.kind === 'article' && node.source !== undefined) return node.source
  // A topic's file, or an article whose text a push let go of after its plan.
  if (node.file === undefined) return undefined
  const text = await readTextInside(path.join(scan.dir, node.file), {boundary: scan.dir, maxBytes: maxBaseBytes}).catch(
    () => undefined
  )
  return text !== undefined && sourceHashOf(text) === hash ? text : undefined
}

/**
 * Stores the base of each entry of `state` whose file in `scan` holds its
 * `sourceHash`, and `extra` texts (bases a pull recorded for files that hold
 * more: a local edit merged with the platform's); then removes the bases no
 * entry names. Never fails the run: the store is a cache.
 */
export async function recordBases(scan: ScanResult, state: SyncState, extra: Iterable<string> = []): Promise<void> {
  const dir = scan.dir
  try {
    for (const text of extra) storeBase(dir, text)
    // One listing of the store, not a check of each entry's file: a no-op run over thousands of documents stores nothing.
    const stored = listBases(dir)
    const has = (hash: string) => (stored ? stored.has(hash) : hasBase(dir, hash))
    for (const [key, entry] of Object.entries(state.items)) {
      if (!entry.sourceHash || has(entry.sourceHash)) continue
      const text = await textOf(scan, key, entry.sourceHash)
      if (text === undefined) continue
      // The text hashes to `sourceHash` (the scan's hash of it, or checked in `textOf`), and the listing says it is not stored.
      storeBase(dir, text, entry.sourceHash, stored)
      stored?.add(entry.sourceHash)
    }
    pruneBases(dir, namedHashes(state), stored)
  } catch {
    // A cache that cannot be written costs only the merge of documents edited on both sides (a conflict copy then).
  }
}

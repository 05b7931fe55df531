/**
 * The author's own copies of the files a pulled body shows. A file pushed
 * from the folder is recorded by its content, not by where it lies; pull
 * planned a copy of it in `_assets/` and downloaded every one of them for
 * each web-edited article, only to drop them after the merge (1,503
 * requests for 3,000 images). So the files the state already holds are
 * looked up, by content, among those the document's file names: a body
 * names them there, and only a file the document does not hold is fetched.
 */
import type {DocumentFile} from './document-file.js'
import {fetchDeferred} from './downloads.js'
import type {PullOp} from './plan.js'
import type {ApplyRun} from './run.js'

/**
 * The deferred files among `urls` (`run.files.deferred`) that the file of
 * `op` already names, by URL (their repo-relative paths); the others are
 * fetched now, into their planned place.
 */
export async function ownCopies(
  run: ApplyRun,
  document: DocumentFile,
  op: PullOp,
  urls: readonly string[]
): Promise<Map<string, string>> {
  const own = new Map<string, string>()
  const deferred = urls.filter((url) => run.files.deferred.has(url))
  if (deferred.length === 0 || op.op === 'conflict') return own
  const bySha = await filesNamedBy(document)
  for (const url of deferred) {
    const found = bySha.get(run.files.deferred.get(url)!.sha256)
    if (found !== undefined) own.set(url, found)
  }
  await fetchDeferred(
    run,
    deferred.filter((url) => !own.has(url))
  )
  return own
}

/** The files the document's file names (as push reads it), by content; none when it has no file yet. */
async function filesNamedBy(document: DocumentFile): Promise<Map<string, string>> {
  const bySha = new Map<string, string>()
  const scanned = await document.scanned()
  for (const asset of scanned?.node.refs.assets ?? []) if (!bySha.has(asset.sha256)) bySha.set(asset.sha256, asset.path)
  return bySha
}

/**
 * A body let go of and read again. A push holds a document's body only
 * while the document is in flight: between the scan and the write it keeps
 * what identity and change detection need (paths, hashes, title,
 * references), and the write reads the body from its file again, checked
 * against the hash the scan took of it (`bodyKey`). A body the file alone
 * does not give (one assembled from includes, `readfile` or site values, or
 * the text the scan made for a blank page) is held instead.
 */
import {readInsideSync} from '../trust/index.js'
import {maxBaseBytes} from './base-store.js'
import {bodyOf, readDocumentHead} from './body.js'
import {sha256} from './hash.js'
import {decodeText} from './text.js'
import type {LocalNode} from './types.js'

/** The file of a document no longer holds the body its plan was made from: it was edited while the run went on. */
export class BodyMovedError extends Error {
  constructor(readonly file: string) {
    super(
      `${file} changed while the push ran (it no longer holds the text the plan was made from): not written now; the next push takes it`
    )
    this.name = 'BodyMovedError'
  }
}

/** Whether `node` has a body, held or let go of (`releaseBody`). */
export function hasBody(node: LocalNode): boolean {
  return node.body !== undefined || node.bodyKey !== undefined
}

/** Whether the body of `node` is its file's own text, which `readBodyAgain` can read again. */
function rereadable(node: LocalNode): boolean {
  return node.bodyKey !== undefined && node.fileBodyKey === node.bodyKey && node.file !== undefined
}

/**
 * Lets go of the body text of `node` when its file can give it again. A
 * parsed tree, if any, is the caller's to keep or drop.
 */
export function releaseBody(node: LocalNode): void {
  if (rereadable(node)) delete node.body
}

/**
 * Gives `node` its body back from its file under `dir` (nothing when it
 * holds its body or its tree, or has no body): the file is read through the
 * trust rules, cut as the scan cut it (front matter blanked, the title
 * heading blanked or not), and taken only when it hashes to the scan's
 * `bodyKey`. Throws `BodyMovedError` when the file moved on meanwhile (or
 * is gone); synchronous, so a render can call it right before it parses.
 */
export function readBodyAgain(dir: string, node: LocalNode): void {
  if (node.body !== undefined || node.tree !== undefined || node.bodyKey === undefined) return
  const file = node.file
  if (!rereadable(node) || file === undefined) throw new BodyMovedError(file ?? node.path)
  let text: string
  try {
    text = decodeText(readInsideSync(file, {boundary: dir, maxBytes: maxBaseBytes}), file, [])
  } catch {
    throw new BodyMovedError(file)
  }
  const head = readDocumentHead(text, file, [])
  // The scan dropped the opening heading as the title, or kept it: one of the two cuts is the body it hashed.
  for (const dropHeading of head.heading ? [true, false] : [false]) {
    const {body} = bodyOf(head, dropHeading)
    if (sha256(file + '\0' + body) === node.bodyKey) {
      node.body = body
      return
    }
  }
  throw new BodyMovedError(file)
}

/**
 * `text` in a string of its own. A title or an id read from a file is a
 * slice of the file's whole text, and keeps all of it alive as long as it
 * lives (V8 slices a string longer than a few characters instead of copying
 * it); a document's node lives the whole run.
 */
export function ownString(text: string): string {
  // The concatenation is flattened into a new string of its own, which the slice then points into.
  return (' ' + text).slice(1)
}

/** Gives the strings `node` keeps for the whole run that a scan may have cut out of its file (title, ids, external URLs) strings of their own. */
export function ownStrings(node: LocalNode): void {
  node.title = ownString(node.title)
  // The link checker reads them after the plan (`plan --check-links`): kept, but not as slices of the body.
  // In place: a copy by spread per URL made objects of hidden classes of their own, for every URL of the folder.
  for (const found of node.externalUrls ?? []) found.url = ownString(found.url)
  if (node.kbId !== undefined) node.kbId = ownString(node.kbId)
  if (node.foreignKbId !== undefined) node.foreignKbId = ownString(node.foreignKbId)
}

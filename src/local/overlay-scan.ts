/**
 * One document read as push reads it, from a text that is not (yet) its
 * file: the folder is scanned with that text in place of the file, and only
 * that document's body is read. So the front matter, the title, the
 * includes, the conversion and the resolution of links and files are the
 * scan's own, for the base of a merge and for each text the merge proposes.
 * The scans of one pull share what they read (files by size and time,
 * heads, converted bodies, file hashes): only the folder's walk and the
 * one body are done again.
 */
import {statSync} from 'node:fs'
import {realpath} from 'node:fs/promises'
import path from 'node:path'
import type {BodyFacts} from './body-cache.js'
import {readDocumentHead, type DocumentHead} from './body.js'
import type {Diagnostic} from './diagnostic.js'
import {hashFile, type FileHash} from './hash.js'
import {scanFolder, type ScanOptions} from './scan.js'
import type {ScanReuse} from './scan-reuse.js'
import {readFiles, readTextFile} from './text.js'
import type {LocalNode, ScanResult} from './types.js'
import {walkFolder} from './walk.js'

/** A document scanned from a given text. */
export interface ScannedDocument {
  node: LocalNode
  scan: ScanResult
  /** The errors the scan found in this document (a push would refuse it). */
  errors: Diagnostic[]
}

/** Scans documents of one folder from given texts. */
export interface DocumentScanner {
  /** The document of `file` (relative, with `/`) as push reads it when the file holds `text`; undefined when it is no document. */
  scan(file: string, text: string): Promise<ScannedDocument | undefined>
}

/** A scanner of the folder `dir`, with the scan options of push (`ignore`, `links`, `locales`). */
export function documentScanner(
  dir: string,
  options: Pick<ScanOptions, 'ignore' | 'links' | 'locales'> = {}
): DocumentScanner {
  let root: string | undefined
  const files = new Map<string, {size: number; mtimeMs: number; bytes: Uint8Array}>()
  const heads = new Map<string, {text: string; head: DocumentHead; diagnostics: Diagnostic[]}>()
  const bodies = new Map<string, BodyFacts>()
  const hashes = new Map<string, {size: number; mtimeMs: number; hashed: FileHash}>()
  let given: {absolute: string; bytes: Uint8Array} | undefined
  const read = (absolute: string): Uint8Array => {
    if (given && absolute === given.absolute) return given.bytes
    const {size, mtimeMs} = statSync(absolute)
    const known = files.get(absolute)
    if (known?.size === size && known.mtimeMs === mtimeMs) return known.bytes
    const bytes = readTextFile(absolute)
    files.set(absolute, {size, mtimeMs, bytes})
    return bytes
  }
  const reuse: ScanReuse = {
    readFiles: (root, relatives) => readFiles(root, relatives, read),
    readHead(text, file, diagnostics) {
      const key = file + '\0' + text
      let known = heads.get(key)
      if (!known) {
        const found: Diagnostic[] = []
        known = {text, head: readDocumentHead(text, file, found), diagnostics: found}
        heads.set(key, known)
      }
      for (const diagnostic of known.diagnostics) diagnostics.push({...diagnostic})
      return known.head
    },
    bodies,
    // Walked each time: a document this pull wrote since is a link target the merged text may name.
    walk: (root, rules, diagnostics) => walkFolder(root, rules, diagnostics),
    async hashFile(absolute) {
      const {size, mtimeMs} = statSync(absolute)
      const known = hashes.get(absolute)
      if (known?.size === size && known.mtimeMs === mtimeMs) return known.hashed
      const hashed = await hashFile(absolute)
      hashes.set(absolute, {size, mtimeMs, hashed})
      return hashed
    }
  }
  return {
    async scan(file, text) {
      root ??= await realpath(path.resolve(dir))
      given = {absolute: path.join(root, file), bytes: Buffer.from(text, 'utf8')}
      try {
        const scan = await scanFolder(dir, {...options, reuse, bodiesOf: new Set([file])})
        const node = Object.values(scan.byPath).find((candidate) => (candidate.file ?? candidate.path) === file)
        if (!node) return undefined
        const errors = scan.diagnostics.filter((d) => d.severity === 'error' && d.file === file)
        return {node, scan, errors}
      } finally {
        given = undefined
      }
    }
  }
}

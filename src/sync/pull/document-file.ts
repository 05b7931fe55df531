/**
 * The file of one pulled document, read and scanned at most once per
 * document: the look for the author's own copies of its files
 * (`own-copies.ts`) and the merge (`round-trip/pull-merge.ts`) both need
 * the file and push's reading of it, and each read and scanned it on its own.
 */
import path from 'node:path'
import type {DocumentScanner, ScannedDocument} from '../../local/index.js'
import {readText} from '../shared/document-files.js'
import type {PullOp} from './plan.js'
import type {ApplyRun} from './run.js'

/** The document's file as it is before the pull writes it. */
export interface DocumentFile {
  /** Where it is, relative (a topic's page may be `index.md` or `README.md`, not the `_index.md` pull names new ones). */
  file: string
  /** Its text as on disk; undefined when there is no file. */
  raw(): Promise<string | undefined>
  /** As push reads it (line ends made LF); undefined when there is no file or it is no document. */
  scanned(): Promise<ScannedDocument | undefined>
}

/** The file of `op` in the folder after the pull's moves, read and scanned when first asked. */
export function documentFile(run: ApplyRun, scanner: DocumentScanner, op: PullOp): DocumentFile {
  const file = run.context.scan.byPath[op.path]?.file ?? op.file
  let raw: Promise<string | undefined> | undefined
  let scanned: Promise<ScannedDocument | undefined> | undefined
  const read = () => (raw ??= readText(path.join(run.dir, file)))
  return {
    file,
    raw: read,
    scanned: () =>
      (scanned ??= read().then((text) =>
        text === undefined ? undefined : scanner.scan(file, text.replace(/\r\n?/g, '\n'))
      ))
  }
}

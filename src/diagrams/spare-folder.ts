/**
 * Where a rendering goes when the folder's cache cannot be written (a
 * read-only checkout, a `.kbsync` link out of the folder): one temporary
 * folder per process, made when first needed and removed when the process
 * exits. A folder per rendering, never removed, left one directory in the
 * system's temporary folder per diagram and run.
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'

let spare: string | undefined

/** This process's spare folder, made (and its removal at exit arranged) on first use. */
function spareFolder(): string {
  if (spare === undefined) {
    const made = mkdtempSync(path.join(tmpdir(), 'kbsync-diagram-'))
    // 'exit' runs on a normal end, on process.exit and after the CLI's own SIGINT/SIGTERM handling.
    process.once('exit', () => rmSync(made, {recursive: true, force: true}))
    spare = made
  }
  return spare
}

/**
 * Writes `text` as the file `name` (a base name) in this process's spare
 * folder; returns the file's absolute path, valid until the process exits.
 */
export function writeSpareFile(name: string, text: string): string {
  const file = path.join(spareFolder(), path.basename(name))
  writeFileSync(file, text)
  return file
}

/**
 * Reading the folder's text files. Invalid UTF-8 would otherwise turn into
 * U+FFFD silently and reach the knowledge base; it is reported instead, with
 * the first line that holds a bad byte sequence.
 */
import {isUtf8} from 'node:buffer'
import {readFileSync} from 'node:fs'
import path from 'node:path'
import type {Diagnostic} from './diagnostic.js'
import {timeSlices} from './time-slices.js'

/**
 * Decodes the bytes of the file `relative` as UTF-8, without a leading byte
 * order mark; when they are not valid
 * UTF-8, adds an error at the first bad line and returns the lossy decoding
 * (so the scan goes on and reports every other problem too).
 */
export function decodeText(bytes: Uint8Array, relative: string, diagnostics: Diagnostic[]): string {
  if (!isUtf8(bytes)) {
    diagnostics.push({
      severity: 'error',
      file: relative,
      line: firstInvalidLine(bytes),
      message: 'The file is not valid UTF-8',
      hint: 'Save it with UTF-8 encoding',
      rule: 'invalid-utf8'
    })
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
  // Editors on Windows save a byte order mark; left in, it hides front matter and a first `# ` heading.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/**
 * Reads the files `relatives` under `root`. Synchronous reads, in slices
 * with a turn of the event loop between them: an asynchronous read of a
 * small file waits on libuv's thread pool several times (open, stat, read,
 * close), which made reading thousands of files six times slower than the
 * reads themselves; the slices keep a watching or previewing process
 * responsive meanwhile. `read` reads one file by its absolute path (the
 * rescanner's takes unchanged files' bytes from its last scan).
 */
export async function readFiles(
  root: string,
  relatives: readonly string[],
  read: (absolute: string) => Uint8Array = readFileSync
): Promise<Map<string, Uint8Array>> {
  const contents = new Map<string, Uint8Array>()
  const nextSlice = timeSlices()
  for (const relative of relatives) {
    contents.set(relative, read(path.join(root, relative)))
    await nextSlice()
  }
  return contents
}

/** The 1-based line of the first invalid sequence (a line feed byte never sits inside a multi-byte sequence). */
function firstInvalidLine(bytes: Uint8Array): number {
  let line = 1
  let start = 0
  while (start <= bytes.length) {
    const end = bytes.indexOf(0x0a, start)
    const stop = end === -1 ? bytes.length : end
    if (!isUtf8(bytes.subarray(start, stop))) return line
    if (end === -1) break
    start = end + 1
    line++
  }
  return line
}

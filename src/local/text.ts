/**
 * Reading the folder's text files. Invalid UTF-8 would otherwise turn into
 * U+FFFD silently and reach the knowledge base; it is reported instead, with
 * the first line that holds a bad byte sequence.
 */
import {isUtf8} from 'node:buffer'
import {closeSync, fstatSync, openSync, readSync} from 'node:fs'
import path from 'node:path'
import {maxArticleBytes} from './article-limit.js'
import type {Diagnostic} from './diagnostic.js'
import {timeSlices} from './time-slices.js'

/**
 * Decodes the bytes of the file `relative` as UTF-8, without a leading byte
 * order mark; when they are not valid
 * UTF-8, adds an error at the first bad line and returns the lossy decoding
 * (so the scan goes on and reports every other problem too).
 */
export function decodeText(bytes: Uint8Array, relative: string, diagnostics: Diagnostic[]): string {
  const fullSize = oversized.get(bytes)
  if (fullSize !== undefined) diagnostics.push(tooLarge(relative, fullSize))
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
  read: (absolute: string) => Uint8Array = readTextFile
): Promise<Map<string, Uint8Array>> {
  const contents = new Map<string, Uint8Array>()
  const nextSlice = timeSlices()
  for (const relative of relatives) {
    contents.set(relative, read(path.join(root, relative)))
    await nextSlice()
  }
  return contents
}

/**
 * The most bytes of a text file the scan reads whole: an article's limit
 * (`maxArticleBytes`) with room for its front matter. A repository may hold
 * a file of gigabytes (a sparse file costs no disk), which read whole would
 * fill memory or pass the longest string the runtime can make.
 */
export const maxTextFileBytes = maxArticleBytes + 3 * 1048576

// Enough for any front matter and first heading (the YAML rule reads 128,000 characters), under an article's limit.
const oversizedHeadBytes = 1048576

/** The bytes read of a file over `maxTextFileBytes`: its head only, mapped to the file's whole size. */
const oversized = new WeakMap<Uint8Array, number>()

/**
 * Reads a text file of the folder: whole when it holds at most
 * `maxTextFileBytes`, else only its first megabyte (to its last whole line),
 * which `decodeText` then reports as too large: the scan goes on and names
 * every other problem, and nothing past the head is ever in memory.
 */
export function readTextFile(absolute: string): Uint8Array {
  const fd = openSync(absolute, 'r')
  try {
    const size = fstatSync(fd).size
    const wanted = size > maxTextFileBytes ? oversizedHeadBytes : size
    const buffer = Buffer.allocUnsafe(wanted)
    let length = 0
    for (let read = -1; length < wanted && read !== 0; length += read)
      read = readSync(fd, buffer, length, wanted - length, null)
    if (size <= maxTextFileBytes) return buffer.subarray(0, length)
    const head = buffer.subarray(0, buffer.lastIndexOf(0x0a, length - 1) + 1)
    oversized.set(head, size)
    return head
  } finally {
    closeSync(fd)
  }
}

/** The error of a text file over `maxTextFileBytes` (the rule of an article over its limit). */
function tooLarge(relative: string, size: number): Diagnostic {
  return {
    severity: 'error',
    file: relative,
    line: 1,
    message: `The file is ${(size / 1048576).toFixed(1)} MB; kbsync reads text files of at most ${maxTextFileBytes / 1048576} MB (an article holds at most ${maxArticleBytes / 1048576} MB)`,
    hint: 'Split it into several articles, attach large content as files, or list it in .kbsyncignore',
    rule: 'article-too-large'
  }
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

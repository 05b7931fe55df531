/**
 * Reading the folder's text files. Invalid UTF-8 would otherwise turn into
 * U+FFFD silently and reach the knowledge base; it is reported instead, with
 * the first line that holds a bad byte sequence.
 */
import {isUtf8} from 'node:buffer'
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import type {Diagnostic} from './diagnostic.js'
import {mapLimit} from './map-limit.js'

/**
 * Decodes the bytes of the file `relative` as UTF-8; when they are not valid
 * UTF-8, adds an error at the first bad line and returns the lossy decoding
 * (so the scan goes on and reports every other problem too).
 */
export function decodeText(bytes: Buffer, relative: string, diagnostics: Diagnostic[]): string {
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
  return bytes.toString('utf8')
}

/** Reads `absolute` as UTF-8 text (see `decodeText`). */
export async function readTextFile(absolute: string, relative: string, diagnostics: Diagnostic[]): Promise<string> {
  return decodeText(await readFile(absolute), relative, diagnostics)
}

/**
 * Reads the files `relatives` under `root`, several at a time (one after
 * another, each read waits for a round trip through libuv's thread pool:
 * that, not the disk, made the scan of thousands of small files slow).
 */
export async function readFiles(root: string, relatives: readonly string[]): Promise<Map<string, Buffer>> {
  const contents = await mapLimit(relatives, 32, (relative) => readFile(path.join(root, relative)))
  return new Map(relatives.map((relative, index) => [relative, contents[index]!]))
}

/** The 1-based line of the first invalid sequence (a line feed byte never sits inside a multi-byte sequence). */
function firstInvalidLine(bytes: Buffer): number {
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

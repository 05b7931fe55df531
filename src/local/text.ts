/**
 * Reading the folder's text files. Invalid UTF-8 would otherwise turn into
 * U+FFFD silently and reach the knowledge base; it is reported instead, with
 * the first line that holds a bad byte sequence.
 */
import {isUtf8} from 'node:buffer'
import {readFile} from 'node:fs/promises'
import type {Diagnostic} from './diagnostic.js'

/**
 * Reads `absolute` as UTF-8; when it is not valid UTF-8, adds an error on
 * `relative` at the first bad line and returns the lossy decoding (so the
 * scan goes on and reports every other problem too).
 */
export async function readTextFile(absolute: string, relative: string, diagnostics: Diagnostic[]): Promise<string> {
  const bytes = await readFile(absolute)
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

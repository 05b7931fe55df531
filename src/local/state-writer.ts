/**
 * Writing a large JSON file (the sync state of tens of thousands of items)
 * without building it as one string: the value is turned into text member
 * by member (`jsonChunks`), the chunks go to a new temporary file beside the
 * target in blocks, which is flushed to the disk (fsync) and renamed over the
 * target, and the folder is flushed so that the rename itself survives a
 * power cut. A reader sees the old file or the new one, never a part.
 *
 * The text is byte for byte that of `JSON.stringify(value, null, 2)`
 * followed by a newline: files written before read the same, and a reader
 * needs nothing new.
 */
import {closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync} from 'node:fs'
import path from 'node:path'
import {pathToWriteInside} from './inside.js'
import {temporaryBeside} from './temp-name.js'
import {asLocalWriteError} from './write-failure.js'

/** How much text is gathered before one write to the disk. */
const blockBytes = 64 * 1024

/**
 * The text of `JSON.stringify(value, null, 2)`, in pieces: the objects and
 * arrays of the first `streamDepth` levels are given member by member (the
 * state's items are at level 2), deeper values each as one piece. The depth
 * is the caller's constant, so the generators nest at most that deep.
 */
export function* jsonChunks(value: unknown, streamDepth = 2, depth = 0): Generator<string> {
  if (depth >= streamDepth || !isContainer(value)) {
    yield leafText(value, depth)
    return
  }
  const inner = '\n' + '  '.repeat(depth + 1)
  let first = true
  const open = Array.isArray(value) ? '[' : '{'
  const close = Array.isArray(value) ? ']' : '}'
  if (Array.isArray(value)) {
    for (const member of value) {
      yield (first ? open : ',') + inner
      first = false
      // As JSON.stringify does: a member that has no JSON text is null in an array.
      yield* jsonChunks(hasText(member) ? member : null, streamDepth, depth + 1)
    }
  } else {
    for (const [key, member] of Object.entries(value)) {
      // As JSON.stringify does: a member that has no JSON text is left out of an object.
      if (!hasText(member)) continue
      yield (first ? open : ',') + inner + JSON.stringify(key) + ': '
      first = false
      yield* jsonChunks(member, streamDepth, depth + 1)
    }
  }
  yield first ? open + close : '\n' + '  '.repeat(depth) + close
}

/** An object or array streamed member by member (one with `toJSON`, a Date, is a leaf). */
function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as {toJSON?: unknown}).toJSON !== 'function' &&
    !ArrayBuffer.isView(value)
  )
}

/** Whether JSON.stringify gives `value` a text (undefined, functions and symbols have none). */
function hasText(value: unknown): boolean {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return false
  if (value !== null && typeof value === 'object' && typeof (value as {toJSON?: unknown}).toJSON === 'function')
    return hasText((value as {toJSON(): unknown}).toJSON())
  return true
}

/** `value` as JSON.stringify indents it at `depth` (its inner lines shifted; a JSON string holds no raw newline). */
function leafText(value: unknown, depth: number): string {
  const text = JSON.stringify(value, null, 2) ?? 'null'
  return depth === 0 ? text : text.replaceAll('\n', '\n' + '  '.repeat(depth))
}

/**
 * Writes the text `chunks` to the file `rel` of `root`, the way every
 * kbsync write goes (`inside.ts`: no link out of the folder is followed):
 * into a new temporary file in blocks, fsync'd, renamed over `rel`, and the
 * folder fsync'd. On error nothing is left: no temporary file, `rel` as it
 * was. Synchronous, like the state writes it serves. Returns the bytes written.
 */
export function writeStreamedInside(root: string, rel: string, chunks: Iterable<string>): number {
  const target = pathToWriteInside(root, rel)
  const temporary = temporaryBeside(target)
  let fd: number | undefined
  let written = 0
  try {
    fd = openSync(temporary, 'wx')
    let block: string[] = []
    let size = 0
    for (const chunk of chunks) {
      block.push(chunk)
      size += chunk.length
      if (size < blockBytes) continue
      written += writeText(fd, block.join(''))
      block = []
      size = 0
    }
    written += writeText(fd, block.join(''))
    fsyncSync(fd)
    closeSync(fd)
    fd = undefined
    renameSync(temporary, target)
  } catch (error) {
    if (fd !== undefined) closeSync(fd)
    rmSync(temporary, {force: true})
    throw asLocalWriteError(error, root, rel)
  }
  syncFolder(path.dirname(target))
  return written
}

/** Writes `value` as JSON (two-space indent, final newline) to `rel` of `root`, streamed (see `writeStreamedInside`); returns the bytes written. */
export function writeJsonInside(root: string, rel: string, value: unknown, streamDepth = 2): number {
  return writeStreamedInside(root, rel, withNewline(jsonChunks(value, streamDepth)))
}

function* withNewline(chunks: Iterable<string>): Generator<string> {
  yield* chunks
  yield '\n'
}

/** Writes all of `text` at the end of what `fd` holds (a full disk may take part of a write, then fail). */
function writeText(fd: number, text: string): number {
  const data = Buffer.from(text)
  let done = 0
  while (done < data.length) done += writeSync(fd, data, done, data.length - done)
  return done
}

/** Flushes the folder's entries (the rename); a file system that cannot is left as it is. */
function syncFolder(folder: string): void {
  let fd: number | undefined
  try {
    fd = openSync(folder, 'r')
    fsyncSync(fd)
  } catch {
    // Some file systems (and Windows) do not fsync a folder: the rename is as durable as they make it.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/**
 * Reading a file of the repository (or synced folder), whatever the
 * repository holds: the read-side twin of `src/local/inside.ts`, which
 * guards writes. A cloned repository may plant a symbolic link to any file
 * the user can read (`~/.ssh/id_ed25519`), a FIFO that blocks whoever opens
 * it, or a file of gigabytes; every read of a file kbsync did not write
 * itself goes through here, so none of those can leak a secret, hang the run
 * or exhaust memory.
 *
 * The rule, in one place:
 * - the file's real path (every link resolved) must stay inside the
 *   boundary's real path: a link that leaves it is refused, one that stays
 *   inside is the repository's own structure and is followed;
 * - it must be a regular file: a FIFO, socket, device or folder is refused
 *   from an lstat of the real path, before it is opened (opening a FIFO
 *   blocks until a writer comes, opening a device may act), and the open
 *   itself is non-blocking and checked again with fstat (same file, still
 *   regular);
 * - at most `maxBytes` are read: a file whose size says more is refused
 *   before a byte is read, and the read stops at `maxBytes + 1` bytes in
 *   case the file grew, so a huge file never fills memory.
 *
 * A refusal throws a `ReadRefusedError` whose `reason` tells why and whose
 * message is a sentence naming the file as the caller gave it; the caller
 * adds where it was named (file and line) and what to do.
 */
import {closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats} from 'node:fs'
import {open} from 'node:fs/promises'
import path from 'node:path'
import {isInside} from './paths.js'
import {realPathSync} from './real-path.js'
import {realBoundary} from './real-boundary.js'

/** Why a read was refused. */
export type ReadRefusal =
  /** Nothing at that path (or a link that leads nowhere). */
  | 'missing'
  /** Its real path (through links) lies outside the boundary. */
  | 'outside'
  /** A folder, FIFO, socket or device: only regular files are read. */
  | 'not-a-file'
  /** Larger than the caller's limit. */
  | 'too-large'
  /** It exists but cannot be read (permission, a link loop, an I/O error). */
  | 'unreadable'

/** A read refused by the rule of this module (or of `publishable.ts`); nothing of the file was returned. */
export class ReadRefusedError<Reason extends string = ReadRefusal> extends Error {
  override name = 'ReadRefusedError'
  constructor(
    /** Why (see `ReadRefusal`; `publishable.ts` adds its own reasons). */
    readonly reason: Reason,
    /** The file as the caller named it. */
    readonly file: string,
    message: string
  ) {
    super(message)
  }
}

/** What a read must stay within. */
export interface ReadLimits {
  /** The folder the file must be inside (absolute, or relative to the working folder; links in it are resolved). */
  boundary: string
  /** The most bytes the caller accepts; a larger file is refused (`too-large`). */
  maxBytes: number
}

// Absent on Windows (0 there): O_NONBLOCK keeps a FIFO planted after the lstat from blocking the open, O_NOFOLLOW a link planted there from being followed.
const openFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0)

/**
 * The bytes of `file` (absolute, or relative to `limits.boundary`) when it
 * is a regular file inside the boundary of at most `limits.maxBytes` bytes;
 * throws `ReadRefusedError` otherwise (see the module comment).
 */
export async function readInside(file: string, limits: ReadLimits): Promise<Uint8Array> {
  const {boundary, real, info} = await looked(file, limits.boundary)
  if (info.size > limits.maxBytes) throw tooLarge(file, limits.maxBytes)
  const handle = await open(real, openFlags).catch((error: unknown) => {
    throw failed(file, error)
  })
  try {
    check(file, real, boundary, sameFile(file, info, await handle.stat()), limits.maxBytes)
    const bytes = new Bytes(info.size, limits.maxBytes)
    while (
      bytes.room() > 0 &&
      bytes.add((await handle.read(bytes.buffer, bytes.length, bytes.room(), null)).bytesRead)
    );
    return bytes.result(file)
  } finally {
    await handle.close()
  }
}

/** Where `lookInside` found a file: its real path (links resolved) and its size in bytes. */
export interface FoundFile {
  real: string
  size: number
}

/**
 * Looks at `file` (absolute, or relative to `boundary`) without reading it:
 * its real path and size when it is a regular file inside `boundary`;
 * throws `ReadRefusedError` (`missing`, `outside`, `not-a-file`,
 * `unreadable`) otherwise. For a caller that hands the path on (an upload
 * streams it) or decides before reading.
 */
export async function lookInside(file: string, boundary: string): Promise<FoundFile> {
  const {real, info} = await looked(file, boundary)
  return {real, size: info.size}
}

/** The real boundary, the file's real path and its lstat, once it is known to be a regular file inside. */
async function looked(file: string, given: string): Promise<{boundary: string; real: string; info: Stats}> {
  let boundary: string
  try {
    // A boundary not there yet (pull into a new folder) holds no file: missing, like the file.
    boundary = realBoundary(given)
  } catch (error) {
    throw failed(file, error)
  }
  try {
    const real = realPathSync(path.resolve(boundary, file))
    // Synchronous, like the real path's lookups: a wait on the thread pool cost more than the lstat (a no-op push looks at every linked file).
    const info = lstatSync(real)
    check(file, real, boundary, info, Infinity)
    return {boundary, real, info}
  } catch (error) {
    throw error instanceof ReadRefusedError ? error : failed(file, error)
  }
}

/** `readInside`, synchronously (for callers that are, like the state and cache readers). */
export function readInsideSync(file: string, limits: ReadLimits): Uint8Array {
  let boundary: string
  let real: string
  let info: Stats
  try {
    boundary = realBoundary(limits.boundary)
    real = realPathSync(path.resolve(boundary, file))
    info = lstatSync(real)
  } catch (error) {
    throw failed(file, error)
  }
  check(file, real, boundary, info, limits.maxBytes)
  let fd: number
  try {
    fd = openSync(real, openFlags)
  } catch (error) {
    throw failed(file, error)
  }
  try {
    check(file, real, boundary, sameFile(file, info, fstatSync(fd)), limits.maxBytes)
    const bytes = new Bytes(info.size, limits.maxBytes)
    while (bytes.room() > 0 && bytes.add(readSync(fd, bytes.buffer, bytes.length, bytes.room(), null)));
    return bytes.result(file)
  } finally {
    closeSync(fd)
  }
}

/** `readInside` decoded as UTF-8 text. */
export async function readTextInside(file: string, limits: ReadLimits): Promise<string> {
  return utf8Text(await readInside(file, limits))
}

/** `readInsideSync` decoded as UTF-8 text. */
export function readTextInsideSync(file: string, limits: ReadLimits): string {
  return utf8Text(readInsideSync(file, limits))
}

// Bytes as `Buffer#toString('utf8')` reads them: a byte-order mark is kept, a bad sequence becomes U+FFFD.
const decoder = new TextDecoder('utf-8', {ignoreBOM: true})

/** The UTF-8 text of `bytes` (the declarations stay free of Node's `Buffer` for library users without @types/node). */
export function utf8Text(bytes: Uint8Array): string {
  return decoder.decode(bytes)
}

/** Throws unless `info` (of the real path `real`) is a regular file inside `boundary` within `maxBytes`. */
function check(file: string, real: string, boundary: string, info: Stats, maxBytes: number): void {
  if (!isInside(boundary, real))
    throw new ReadRefusedError(
      'outside',
      file,
      `${file} leads to ${real}, outside ${boundary}: kbsync reads no file through a link that leaves it`
    )
  if (!info.isFile())
    throw new ReadRefusedError(
      'not-a-file',
      file,
      `${file} is ${kindOf(info)}, not a regular file: kbsync reads only files`
    )
  if (info.size > maxBytes) throw tooLarge(file, maxBytes)
}

/** The open file's fstat, when it is the file that was looked at (nothing swapped it in between). */
function sameFile(file: string, looked: Stats, opened: Stats): Stats {
  if (looked.dev !== opened.dev || looked.ino !== opened.ino)
    throw new ReadRefusedError('unreadable', file, `${file} changed while kbsync opened it; run again`)
  return opened
}

/**
 * The bytes of one read, at most `maxBytes + 1`: sized for the file's
 * stated size, grown (up to that bound) when the file holds more than it
 * said (it grew, or its file system does not tell sizes).
 */
class Bytes {
  buffer: Buffer
  length = 0
  constructor(
    size: number,
    private readonly maxBytes: number
  ) {
    this.buffer = Buffer.alloc(Math.min(size, maxBytes) + 1)
  }

  /** How many more bytes may be read into `buffer` at `length`. */
  room(): number {
    return this.buffer.length - this.length
  }

  /** Counts `count` bytes read; false at the end of the file. Grows the buffer when full and the bound allows. */
  add(count: number): boolean {
    if (count === 0) return false
    this.length += count
    if (this.length === this.buffer.length && this.length <= this.maxBytes) {
      const grown = Buffer.alloc(Math.min(this.length * 2, this.maxBytes + 1))
      this.buffer.copy(grown)
      this.buffer = grown
    }
    return true
  }

  /** The bytes read, unless they are more than `maxBytes`. */
  result(file: string): Buffer {
    if (this.length > this.maxBytes) throw tooLarge(file, this.maxBytes)
    return this.buffer.subarray(0, this.length)
  }
}

function tooLarge(file: string, maxBytes: number): ReadRefusedError {
  return new ReadRefusedError('too-large', file, `${file} is larger than ${maxBytes} bytes, the most kbsync reads here`)
}

/** A failed realpath, lstat or open as a refusal: missing, or unreadable. */
function failed(file: string, error: unknown): ReadRefusedError {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT' || code === 'ENOTDIR') return new ReadRefusedError('missing', file, `${file} does not exist`)
  if (code === 'ELOOP')
    return new ReadRefusedError('unreadable', file, `${file} is a symbolic link that loops, or was replaced by one`)
  return new ReadRefusedError('unreadable', file, `${file} cannot be read (${code ?? String(error)})`)
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a folder'
  if (info.isFIFO()) return 'a FIFO (named pipe)'
  if (info.isSocket()) return 'a socket'
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device'
  return 'not a regular file'
}

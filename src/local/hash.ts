/** Content hashes of the folder side. */
import {createHash, hash} from 'node:crypto'
import {createReadStream, readFileSync, statSync} from 'node:fs'
import {isLfsPointer} from './lfs-pointer.js'

/** The content hash and size of a local file; `lfsPointer` when it is a Git LFS pointer, not the content. */
export interface FileHash {
  sha256: string
  size: number
  lfsPointer?: true
}

/** sha256 of a string or bytes, hex. */
export function sha256(data: string | Uint8Array): string {
  // One-shot: a no-op push hashes each document three times, and a Hash object per call cost more than the hashing.
  return hash('sha256', data, 'hex')
}

/** The hash the state records for a document file's text (`sourceHash`): line ends made LF first. */
export function sourceHashOf(text: string): string {
  return sha256(text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text)
}

/** Files up to this size are read at once to hash them; larger ones are streamed. */
const wholeReadBytes = 4 * 1048576

/**
 * sha256 and size of the file at `absolute`. A small file is read at once,
 * synchronously: an asynchronous read waits on the thread pool several times
 * (open, stat, read, close), which cost more than hashing an image. A large
 * one (a video, an archive) is streamed, never held whole in memory. The
 * bytes of a small one tell a Git LFS pointer at no cost.
 */
export async function hashFile(absolute: string): Promise<FileHash> {
  if (statSync(absolute).size <= wholeReadBytes) {
    const bytes = readFileSync(absolute)
    const hashed: FileHash = {sha256: sha256(bytes), size: bytes.length}
    if (isLfsPointer(bytes)) hashed.lfsPointer = true
    return hashed
  }
  const hash = createHash('sha256')
  let size = 0
  for await (const chunk of createReadStream(absolute)) {
    hash.update(chunk as Buffer)
    size += (chunk as Buffer).length
  }
  return {sha256: hash.digest('hex'), size}
}

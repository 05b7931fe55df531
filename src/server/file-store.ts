/**
 * The bytes of uploaded files: streamed in and out, never held whole. With
 * a data file they live in `<data>.files/<guid>`, written to `<guid>.tmp`
 * first and renamed once complete (a kill mid-upload leaves only a `.tmp`,
 * removed at the next start); without one, in memory.
 */
import {createReadStream, createWriteStream, mkdirSync, readdirSync, rmSync, statSync} from 'node:fs'
import {open, rename, rm} from 'node:fs/promises'
import {join} from 'node:path'
import {Readable, Writable} from 'node:stream'
import {finished} from 'node:stream/promises'

/** A stored file, ready to be streamed out. */
export interface StoredBytes {
  size: number
  open(): Readable
}

/** A file being received: write its bytes to `stream`, then `commit` or `abort`. */
export interface IncomingFile {
  stream: Writable
  /** Makes the bytes readable under the guid, durably (after this the store may refer to it). */
  commit(): Promise<void>
  /** Drops what was written. */
  abort(): Promise<void>
}

/** Where uploaded bytes are kept. */
export interface FileStore {
  receive(guid: string): IncomingFile
  read(guid: string): StoredBytes | undefined
}

/** Files kept in memory (a server without a data file). */
export function memoryFileStore(): FileStore {
  const files = new Map<string, Buffer>()
  return {
    receive(guid) {
      const chunks: Buffer[] = []
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          chunks.push(chunk)
          done()
        }
      })
      return {
        stream,
        commit: async () => void files.set(guid, Buffer.concat(chunks)),
        abort: async () => void chunks.splice(0)
      }
    },
    read(guid) {
      const bytes = files.get(guid)
      return bytes && {size: bytes.length, open: () => Readable.from([bytes])}
    }
  }
}

/** Files kept in `dir`; removes the `.tmp` files a killed server left there. */
export function diskFileStore(dir: string): FileStore {
  mkdirSync(dir, {recursive: true})
  for (const name of readdirSync(dir)) if (name.endsWith('.tmp')) rmSync(join(dir, name), {force: true})
  return {
    receive(guid) {
      const final = join(dir, guid)
      const temp = `${final}.tmp`
      const stream = createWriteStream(temp)
      return {
        stream,
        async commit() {
          await finished(stream)
          // The store's record of the file is made durable next; the bytes must be so before it.
          const handle = await open(temp, 'r')
          try {
            await handle.sync()
          } finally {
            await handle.close()
          }
          await rename(temp, final)
        },
        async abort() {
          stream.destroy()
          await finished(stream).catch(() => undefined)
          await rm(temp, {force: true})
        }
      }
    },
    read(guid) {
      const path = join(dir, guid)
      try {
        const {size} = statSync(path)
        return {size, open: () => createReadStream(path)}
      } catch {
        return undefined
      }
    }
  }
}

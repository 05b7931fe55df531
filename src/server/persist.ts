/**
 * Persistence of the local knowledge base: one JSON file written atomically
 * (temp file + rename), so a kill -9 at any moment leaves either the old or
 * the new file, never a torn one; uploaded bytes live in `<file>.files/`.
 */
import {closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync} from 'node:fs'
import {dirname, join} from 'node:path'
import type {StoreData} from './store.js'

/** What a data file holds. */
export interface PersistedData extends StoreData {
  schemaVersion: 1
  /** Tokens issued by `/auth`, so they survive a restart. */
  tokens: string[]
}

/** Reads the data file, or undefined when there is none yet. */
export function loadData(path: string): PersistedData | undefined {
  if (!existsSync(path)) return undefined
  const unreadable = (why: string) =>
    new Error(`${path}: not a data file of the local knowledge base (${why}). It is left as it is: move it away to start afresh, or restore it from a copy.`)
  let data: PersistedData
  try {
    data = JSON.parse(readFileSync(path, 'utf8')) as PersistedData
  } catch (error) {
    throw unreadable((error as Error).message)
  }
  if (!data || typeof data !== 'object') throw unreadable('not a JSON object')
  if (data.schemaVersion !== 1) throw new Error(`${path}: unsupported data format ${String(data.schemaVersion)}.`)
  if (!Array.isArray(data.items) || !Array.isArray(data.files)) throw unreadable('no items or files list')
  for (const item of data.items) {
    if (!item || typeof item.id !== 'string' || typeof item.title !== 'string' || typeof item.body !== 'string' || (item.type !== 'article' && item.type !== 'topic')) {
      throw unreadable(`an item without id, title, body or type: ${JSON.stringify(item).slice(0, 80)}`)
    }
  }
  return data
}

/** Writes `content` to `path` atomically. */
export function writeAtomic(path: string, content: string | Uint8Array): void {
  mkdirSync(dirname(path), {recursive: true})
  const temp = `${path}.${process.pid}.tmp`
  const fd = openSync(temp, 'w')
  try {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content
    let written = 0
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written)
    // Without fsync a crash after the rename could leave an empty file under the final name.
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(temp, path)
}

/** Saves the whole store. */
export function saveData(path: string, data: PersistedData): void {
  writeAtomic(path, JSON.stringify(data))
}

/** Where the bytes of an uploaded file are kept. */
export function filePath(dataPath: string, guid: string): string {
  return join(`${dataPath}.files`, guid)
}

/**
 * Persistence of the local knowledge base: a snapshot (`<data>`, one JSON
 * document) and a log beside it (`<data>.log`, one JSON record per line:
 * an item as it now is, a deleted item, a file). A write queues its
 * records; the queue is appended and synced in one go, off the event loop
 * (writes that arrive during a sync share the next one: `group-commit.ts`), so a write's cost follows its own
 * size, not the store's. Once the log outgrows the snapshot, both are folded
 * into a new snapshot (streamed to `<data>.tmp` item by item, synced,
 * renamed) and the log emptied.
 *
 * A kill at any point leaves a store that loads: the snapshot is replaced
 * whole or not at all; a record cut short is the log's last line, dropped
 * at the next start; records are whole states, so replaying ones the
 * snapshot already holds (a kill between rename and truncation) changes
 * nothing. Temp files of a killed server are removed at the next start.
 */
import {
  closeSync,
  existsSync,
  fdatasync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync
} from 'node:fs'
import {basename, dirname, join} from 'node:path'
import type {Change, StoreData, StoredItem} from './store.js'

/** What a snapshot holds. */
export interface PersistedData extends StoreData {
  schemaVersion: 1
  /** Tokens issued by `/auth`, so they survive a restart. */
  tokens: string[]
  /** Which credentials issued `tokens` (see `tokens.ts`); absent in files of earlier versions: the public local ones. */
  tokensIssuer?: string
}

/** The snapshot and log of one data file. */
export interface DataFile {
  /** The stored state (snapshot with the log replayed), or undefined when there is none yet. */
  load(): PersistedData | undefined
  /** Queues `changes` for the log, serialised at once (the store may change them after). */
  append(changes: Change[]): void
  /** Appends what is queued to the log and syncs it off the event loop (nothing queued: nothing done). */
  flush(): Promise<void>
  /** The same, synced before it returns. */
  flushSync(): void
  /** Whether the log has grown past the snapshot, so folding it in is worth a full write. */
  wantsCompaction(): boolean
  /** Whether the snapshot exists and the log is empty: the snapshot alone holds the store. */
  isClean(): boolean
  /** Writes the new snapshot, streamed from `parts`, and empties the log (and the queue: the snapshot holds it). */
  compact(parts: SnapshotParts): void
  close(): void
}

/** What a snapshot is written from: its small fields, and the items and files one by one. */
export interface SnapshotParts {
  head: Omit<PersistedData, 'items' | 'files'>
  items: Iterable<unknown>
  files: Iterable<unknown>
}

/** The log grows to at least this many bytes before it is folded into the snapshot. */
const minimumLogBytes = 1048576

/** Opens the data file at `path` (created on the first `compact`). */
export function openDataFile(path: string): DataFile {
  const logPath = `${path}.log`
  mkdirSync(dirname(path), {recursive: true})
  removeStaleTemps(path)
  let log: number | undefined
  let logBytes = 0
  let queued: string[] = []
  let snapshotBytes = existsSync(path) ? statSync(path).size : 0
  const openLog = () => (log ??= openSync(logPath, 'a'))
  /** Writes the queue to the log (not yet synced); returns the log's descriptor. */
  const appendQueued = () => {
    const bytes = Buffer.from(queued.join(''), 'utf8')
    queued = []
    const fd = openLog()
    writeAll(fd, bytes)
    logBytes += bytes.length
    return fd
  }
  return {
    load() {
      const snapshot = existsSync(path) ? readSnapshot(path) : undefined
      if (!existsSync(logPath)) return snapshot
      const {changes, validBytes} = readLog(logPath)
      // A record cut short by a kill: cut it off, so the next append starts on a line of its own.
      if (validBytes < statSync(logPath).size) truncateFile(logPath, validBytes)
      logBytes = validBytes
      return changes.length === 0
        ? snapshot
        : replay(logPath, snapshot ?? {schemaVersion: 1, items: [], files: [], tokens: []}, changes)
    },
    append(changes) {
      for (const change of changes) queued.push(JSON.stringify(change) + '\n')
    },
    async flush() {
      if (queued.length === 0) return
      const fd = appendQueued()
      await new Promise<void>((resolve, reject) =>
        // Closed meanwhile (a stop): the close folded everything into a synced snapshot first.
        fdatasync(fd, (error) => (error && log === fd ? reject(error) : resolve()))
      )
    },
    flushSync() {
      if (queued.length > 0) fdatasyncSync(appendQueued())
    },
    wantsCompaction: () => logBytes > Math.max(minimumLogBytes, snapshotBytes),
    isClean: () => logBytes === 0 && queued.length === 0 && existsSync(path),
    compact(parts) {
      snapshotBytes = writeSnapshot(path, parts)
      queued = []
      if (logBytes > 0 || existsSync(logPath)) {
        const fd = openLog()
        ftruncateSync(fd, 0)
        fsyncSync(fd)
        logBytes = 0
      }
    },
    close() {
      if (log !== undefined) closeSync(log)
      log = undefined
    }
  }
}

/** Where the bytes of uploaded files are kept. */
export function filesDir(dataPath: string): string {
  return `${dataPath}.files`
}

function unreadable(path: string, why: string): Error {
  return new Error(
    `${path}: not a data file of the local knowledge base (${why}). It is left as it is: move it away to start afresh, or restore it from a copy.`
  )
}

function readSnapshot(path: string): PersistedData {
  let data: PersistedData
  try {
    data = JSON.parse(readFileSync(path, 'utf8')) as PersistedData
  } catch (error) {
    throw unreadable(path, (error as Error).message)
  }
  if (!data || typeof data !== 'object') throw unreadable(path, 'not a JSON object')
  if (data.schemaVersion !== 1) throw new Error(`${path}: unsupported data format ${String(data.schemaVersion)}.`)
  if (!Array.isArray(data.items) || !Array.isArray(data.files)) throw unreadable(path, 'no items or files list')
  for (const item of data.items) {
    if (!isItem(item))
      throw unreadable(path, `an item without id, title, body or type: ${JSON.stringify(item).slice(0, 80)}`)
  }
  return {...data, tokens: Array.isArray(data.tokens) ? data.tokens : []}
}

function isItem(item: unknown): boolean {
  const value = item as Record<string, unknown> | null
  return (
    !!value &&
    typeof value.id === 'string' &&
    typeof value.title === 'string' &&
    typeof value.body === 'string' &&
    (value.type === 'article' || value.type === 'topic')
  )
}

/** The complete records of the log, and how many of its bytes they fill. */
function readLog(path: string): {changes: Change[]; validBytes: number} {
  const text = readFileSync(path)
  const end = text.lastIndexOf(0x0a) + 1
  const lines = text.subarray(0, end).toString('utf8').split('\n').slice(0, -1)
  const changes = lines.map((line, index) => {
    const where = `${path}:${index + 1}`
    let change: Change
    try {
      change = JSON.parse(line) as Change
    } catch (error) {
      throw unreadable(where, `a line of the log is not JSON: ${(error as Error).message}`)
    }
    if (!isChange(change)) throw unreadable(where, `a line of the log is not a record: ${line.slice(0, 80)}`)
    return change
  })
  return {changes, validBytes: end}
}

function isChange(change: Change): boolean {
  if (!change || typeof change !== 'object') return false
  if ('item' in change) return !!change.item && typeof change.item.id === 'string'
  if ('deleted' in change) return typeof change.deleted === 'string'
  if ('file' in change) return !!change.file && typeof change.file.guid === 'string'
  return false
}

/** `data` with `changes` applied in order (an item keeps its place; a new one goes last, as created). */
function replay(path: string, data: PersistedData, changes: Change[]): PersistedData {
  const items = new Map(data.items.map((item) => [item.id, item]))
  const files = new Map(data.files.map((file) => [file.guid, file]))
  for (const change of changes) {
    // A record without a body keeps the body the item had.
    if ('item' in change) items.set(change.item.id, {...items.get(change.item.id), ...change.item} as StoredItem)
    else if ('deleted' in change) items.delete(change.deleted)
    else files.set(change.file.guid, change.file)
  }
  for (const item of items.values())
    if (!isItem(item)) throw unreadable(path, `the log leaves an item without id, title, body or type: ${item.id}`)
  return {...data, items: [...items.values()], files: [...files.values()]}
}

/**
 * Writes the snapshot of `parts` to `path` atomically, through the fixed
 * temp name `<path>.tmp`, in chunks of about a megabyte: never the whole
 * store as one string. Returns its size in bytes.
 */
function writeSnapshot(path: string, parts: SnapshotParts): number {
  let size = 0
  // Without the sync a crash after the rename could leave an empty file under the final name.
  syncedChange(`${path}.tmp`, 'w', (fd) => {
    // The head always has `schemaVersion`: its fields are followed by a comma.
    let chunk = JSON.stringify(parts.head).slice(0, -1)
    const write = (text: string) => {
      chunk += text
      if (chunk.length < chunkChars) return
      size += writeText(fd, chunk)
      chunk = ''
    }
    for (const [key, values] of [['items', parts.items] as const, ['files', parts.files] as const]) {
      write(`,${JSON.stringify(key)}:[`)
      let first = true
      for (const value of values) {
        write((first ? '' : ',') + JSON.stringify(value))
        first = false
      }
      write(']')
    }
    size += writeText(fd, chunk + '}')
  })
  renameSync(`${path}.tmp`, path)
  return size
}

/** About how many characters a snapshot chunk gathers before it is written. */
const chunkChars = 1048576

function writeText(fd: number, text: string): number {
  const bytes = Buffer.from(text, 'utf8')
  writeAll(fd, bytes)
  return bytes.length
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let written = 0
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written)
}

function truncateFile(path: string, size: number): void {
  syncedChange(path, 'r+', (fd) => ftruncateSync(fd, size))
}

/** Opens `path`, lets `change` write through the descriptor, and syncs it to disk before closing. */
function syncedChange(path: string, flags: string, change: (fd: number) => void): void {
  const fd = openSync(path, flags)
  try {
    change(fd)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** Removes `<data>.tmp` and the `<data>.<pid>.tmp` files of earlier versions: a killed server's half-written snapshots. */
function removeStaleTemps(path: string): void {
  const name = basename(path)
  const stale = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(?:\\d+\\.)?tmp$`)
  for (const entry of readdirSync(dirname(path)))
    if (stale.test(entry)) rmSync(join(dirname(path), entry), {force: true})
}

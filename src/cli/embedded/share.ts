/**
 * One embedded knowledge base, any number of kbsync processes. The first
 * process that opens a folder's data file claims its server record, starts
 * the server and publishes its address; every other process finds the
 * record and talks to that server, never to the file. A record whose
 * process is dead, or that nothing answers at, is stale: it is removed and
 * claimed afresh. The owner keeps the record for as long as its server
 * runs, so no two processes ever write one data file; it removes the record
 * once the server has stopped (and saved), on exit, and on SIGINT/SIGTERM.
 */
import {mkdirSync, realpathSync} from 'node:fs'
import {basename, dirname, join} from 'node:path'
import {sealOwnerRecord, untrustedOwnerRecord, userSecret} from '../../trust/index.js'
import {isAlive, probe} from './liveness.js'
import {
  claimRecord,
  newNonce,
  publishRecord,
  readRecord,
  recordPath,
  releaseRecord,
  removeStaleRecord,
  type ServerRecord
} from './record.js'

/** A running server of the data file, as `acquireEmbedded` starts it. */
export interface EmbeddedServer {
  apiUrl: string
  filesUrl: string
  token: string
  /** Stops the server; resolves once its data is saved. */
  close(): Promise<void>
}

/** The right to use an embedded knowledge base: as its owner, or as a client of the owner's server. */
export interface Lease {
  role: 'owner' | 'client'
  apiUrl: string
  filesUrl: string
  token: string
  /** The process serving it (this one for an owner) and its command. */
  owner: {pid: number; command: string}
  /** Whether the record still names this lease's server (an owner's always does; a client's owner may have stopped since). */
  isCurrent(): boolean
  /** An owner stops its server (once no one in this process uses it) and removes the record; a client lets go. */
  release(): Promise<void>
}

/** Options of `acquireEmbedded`. */
export interface AcquireOptions {
  /** The command named in the record (default: the CLI's first argument). */
  command?: string
  /** How long to wait for an owner that is starting, busy or stopping (default 15 s). */
  waitMs?: number
}

/** A server this process runs, its record, and how many of its connections use it. */
interface Served {
  server: EmbeddedServer
  /** The data file's real path, which the record's seal names. */
  dataFile: string
  nonce: string
  command: string
  users: number
  record: ServerRecord
}

/** What this process serves, by record path: several connections of one process share one server. */
const served = new Map<string, Served>()

/** How long nothing may answer at a live owner's address before its pid is taken for one reused by another program. */
const refusedGraceMs = 5000

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Opens the embedded knowledge base of the data file `dataPath`: starts its
 * server with `start` when no live kbsync process serves it (this process
 * then owns it), else leases the owner's server. Throws when a live owner
 * does not answer within `waitMs`, naming its pid and the record.
 */
export async function acquireEmbedded(
  dataPath: string,
  start: () => Promise<EmbeddedServer>,
  options: AcquireOptions = {}
): Promise<Lease> {
  const path = recordPath(dataPath)
  mkdirSync(dirname(path), {recursive: true})
  // The seal names the file by its real path: every spelling of it is the same file, a copy elsewhere is not.
  const dataFile = join(realpathSync.native(dirname(dataPath)), basename(dataPath))
  const command = options.command ?? process.argv[2] ?? 'kbsync'
  const deadline = Date.now() + (options.waitMs ?? 15_000)
  let refusedSince: number | undefined
  for (;;) {
    const mine = served.get(path)
    if (mine) return ownerLease(path, mine)
    const found = readRecord(path)
    if (found.state === 'absent') {
      const lease = await claimAndStart(path, dataFile, command, start)
      if (lease) return lease
      continue
    }
    if (found.state === 'unreadable') {
      replaceStale(path, found.text)
      continue
    }
    const {record} = found
    // Planted with the repository, or not kbsync's: no owner, whatever it names. It is replaced, and this process serves the file.
    if (distrusted(path, dataFile, record)) {
      replaceStale(path, found.text)
      continue
    }
    // This process's own server, recorded under another spelling of the path.
    const ours = [...served].find(([, entry]) => entry.nonce === record.nonce)
    if (ours) return ownerLease(ours[0], ours[1])
    if (record.pid === process.pid || !isAlive(record.pid)) {
      // Left by a process that is gone (a kill, a crash), or by an earlier life of this pid.
      replaceStale(path, found.text)
      continue
    }
    if (record.apiUrl !== undefined) {
      const answer = await probe(record)
      if (answer === 'kbsync') return clientLease(path, record)
      if (answer === 'foreign') throw ownerTrouble(path, record, 'another program answers at its address')
      if (answer === 'refused' && record.closing !== true) {
        refusedSince ??= Date.now()
        // A live owner refuses while it stops (its server closes before the record goes); for longer, the pid is another program's.
        if (Date.now() - refusedSince > refusedGraceMs) {
          replaceStale(path, found.text)
          refusedSince = undefined
          continue
        }
      }
    }
    if (Date.now() > deadline)
      throw ownerTrouble(
        path,
        record,
        record.closing
          ? 'it is still stopping'
          : record.apiUrl === undefined
            ? 'it has not started its server'
            : 'its server does not answer'
      )
    await pause(100)
  }
}

/** Claims the record and starts the server; undefined when another process claimed it first. */
async function claimAndStart(
  path: string,
  dataFile: string,
  command: string,
  start: () => Promise<EmbeddedServer>
): Promise<Lease | undefined> {
  const nonce = newNonce()
  const claim: ServerRecord = sealOwnerRecord({pid: process.pid, nonce, command}, dataFile)
  if (!claimRecord(path, claim)) return undefined
  let server: EmbeddedServer
  try {
    server = await start()
  } catch (error) {
    releaseRecord(path, nonce)
    throw error
  }
  const record = sealOwnerRecord(
    {...claim, apiUrl: server.apiUrl, filesUrl: server.filesUrl, token: server.token},
    dataFile
  )
  const entry = {server, dataFile, nonce, command, users: 0, record}
  served.set(path, entry)
  watchExit()
  publishRecord(path, record)
  return ownerLease(path, entry)
}

function ownerLease(path: string, entry: Served): Lease {
  entry.users++
  let released = false
  return {
    role: 'owner',
    apiUrl: entry.server.apiUrl,
    filesUrl: entry.server.filesUrl,
    token: entry.server.token,
    owner: {pid: process.pid, command: entry.command},
    isCurrent: () => true,
    async release() {
      if (released) return
      released = true
      if (--entry.users > 0) return
      // Others wait for a closing owner, however long its last save takes, instead of taking its refusals for a gone one.
      publishRecord(path, sealOwnerRecord({...entry.record, closing: true}, entry.dataFile))
      try {
        await entry.server.close()
      } finally {
        // Only now: until the server has saved and stopped, no other process may open the file.
        served.delete(path)
        releaseRecord(path, entry.nonce)
      }
    }
  }
}

function clientLease(path: string, record: ServerRecord): Lease {
  return {
    role: 'client',
    apiUrl: record.apiUrl!,
    filesUrl: record.filesUrl ?? record.apiUrl!.replace(/\/v4$/, ''),
    token: record.token ?? '',
    owner: {pid: record.pid, command: record.command},
    isCurrent() {
      const now = readRecord(path)
      return now.state === 'present' && now.record.nonce === record.nonce && now.record.closing !== true
    },
    release: async () => undefined
  }
}

/**
 * Whether the record is not one to believe (`trust/owner-record.ts`): not
 * sealed by a process of this user for this data file, or naming an address
 * off loopback. Throws when the seal cannot be checked at all (no user cache
 * folder to keep the key in): replacing a record that may be a live owner's
 * would let two processes write the file.
 */
function distrusted(path: string, dataFile: string, record: ServerRecord): boolean {
  const why = untrustedOwnerRecord(record, dataFile)
  if (why === undefined) return false
  if (!userSecret().persistent)
    throw new Error(
      `${path}: the embedded knowledge base's record cannot be trusted: ${why}. Set XDG_CACHE_HOME to a folder you can write, or remove ${path} if no kbsync process serves the folder, and run the command again.`
    )
  return true
}

function replaceStale(path: string, text: string): void {
  removeStaleRecord(path, text, isAlive)
}

function ownerTrouble(path: string, record: ServerRecord, why: string): Error {
  return new Error(
    `${path}: the embedded knowledge base is held by kbsync process ${record.pid} (\`kbsync ${record.command}\`), but ${why}. ` +
      `Stop that process, or remove ${path} if it is not kbsync, and run the command again.`
  )
}

let exitWatched = false

/** Removes this process's records when it exits, and on SIGINT/SIGTERM when no command of its own handles them. */
function watchExit(): void {
  if (exitWatched) return
  exitWatched = true
  const removeAll = () => {
    for (const [path, entry] of served) releaseRecord(path, entry.nonce)
  }
  process.on('exit', removeAll)
  const onSignal = (signal: NodeJS.Signals) => {
    // A command listening too (watch, serve) stops its server and removes the record itself, once the data is saved.
    if (process.listenerCount(signal) > 1) return
    removeAll()
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    process.kill(process.pid, signal)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}

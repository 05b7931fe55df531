/**
 * What a pull reads besides the structure, in one bounded pool: the full
 * records the plan needs, the permissions of items whose `updated_at` moved
 * since they were last seen, the record of each whose permissions turn out
 * changed (queued the moment its permissions arrive), and the files new
 * bodies use (queued the moment their record arrives, see `prefetch.ts`).
 * Each record is parsed (and converted early) as it arrives, on the
 * conversion pool while the other requests wait on the network: the plan
 * and the apply step keep only its facts (`BodyFacts`), never its tree.
 */
import {ApiError} from '../../api/index.js'
import type {Diagnostic, SyncState} from '../../local/index.js'
import {noteTrouble, toDetail, type RemoteDetail, type RemoteSnapshot} from '../shared/remote.js'
import {PoolClosedError} from '../../workers/index.js'
import type {BodyFacts} from './body-task.js'
import {entriesById, permissionsAsRecorded} from '../shared/declared-permissions.js'
import {createPool, type TaskPool} from './pool.js'
import type {Prefetch} from './prefetch.js'
import type {Speculation} from './speculation.js'
import {createTurns} from './turns.js'
import type {RecordedUrls} from './file-keys.js'
import type {PullClient} from './types.js'

/** The reads of one pull: what they need, and what they fill in besides `remote`. */
export interface PullReader {
  /** Reads the records of `records` and the permissions of `permissions` (and what their answers call for); resolves once all arrived. */
  read(records: readonly string[], permissions: readonly string[]): Promise<void>
  /** What the body of each record read holds (its file URLs, diagram blocks, trouble), by id. */
  facts: Map<string, BodyFacts>
}

/** Whether a permissions read was refused to this account (the platform may answer non-administrators so). */
export function isAccessDenied(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false
  return error.status === 403 || /access_denied/.test(error.errorCode ?? '')
}

/** What the reads of one pull work with. */
export interface ReaderSetting {
  client: PullClient
  remote: RemoteSnapshot
  state: SyncState
  /** Requests at a time. */
  limit: number
  prefetch: Prefetch
  speculation: Speculation
  /** Where a warning about unreadable permissions goes. */
  diagnostics: Diagnostic[]
  /** Each record's file URLs as the state records them (`file-keys.ts`). */
  fileUrls: RecordedUrls
}

/**
 * A reader for one pull at `limit` requests at a time. Permissions closed
 * to this account are left unread, with one warning in `diagnostics`; any
 * other failure rejects `read` (the pull fails before it writes anything:
 * skipping it would lose the permissions for good).
 */
export function createReader(setting: ReaderSetting): PullReader {
  const {client, remote, state, limit, prefetch, speculation, diagnostics, fileUrls} = setting
  const facts = new Map<string, BodyFacts>()
  const started = new Set<string>()
  const converting: Array<Promise<void>> = []
  // Parsed on the pool while other requests wait on the network, each in a turn of its own (`turns.ts`): the record's
  // slot and the answers that arrived meanwhile send their next requests first. A body's files go before the reads still queued.
  const turns = createTurns()
  const parse = (pool: TaskPool, id: string, detail: RemoteDetail) =>
    turns
      .take(() => speculation.convert(id))
      .then(
        (found) => {
          facts.set(id, found)
          noteTrouble(detail, found.trouble)
          prefetch.request(detail, found.fileUrls, (task) => pool.add(task, true))
        },
        (error: unknown) => {
          if (error instanceof PoolClosedError) throw error
          // A worker that died on this body fails this document alone: the plan skips it, by name.
          const trouble = {reason: (error as Error).message, ruleId: 'pull-convert-failed'}
          facts.set(id, {fileUrls: [], codeDiagrams: [], trouble})
          noteTrouble(detail, trouble)
        }
      )
  const entries = entriesById(state)
  let denied = false
  const readRecord = (pool: TaskPool, id: string) => {
    if (remote.details[id] || started.has(id)) return
    started.add(id)
    pool.add(async () => {
      const detail = fileUrls.recorded(toDetail(await client.getItem(id)))
      remote.details[id] = detail
      const parsing = parse(pool, id, detail)
      // A read that fails (a stopped run) leaves the parses unawaited: the pool's closing must not crash the process.
      parsing.catch(() => undefined)
      converting.push(parsing)
    })
  }
  const readPermissions = (pool: TaskPool, id: string) =>
    pool.add(async () => {
      if (denied) return
      try {
        remote.permissions[id] = await client.getPermissions(id)
      } catch (error) {
        if (!isAccessDenied(error)) throw error
        if (!denied) {
          denied = true
          const message = `Permissions are closed to this account (${(error as Error).message}); the items whose permissions could not be read get no permission files`
          diagnostics.push({severity: 'warning', message, rule: 'permissions-unreadable'})
        }
        return
      }
      // Changed since the state recorded them, though `updated_at` said nothing (a push in between recorded it): the record is needed too.
      const entry = entries.get(id)?.entry
      if (entry && remote.items[id] && !permissionsAsRecorded(remote, id, entry)) readRecord(pool, id)
    })
  return {
    facts,
    async read(records, permissions) {
      const pool = createPool(limit)
      // Side by side from the first request: an item's record, then its permissions.
      const reading = new Set(permissions)
      for (const id of records) {
        readRecord(pool, id)
        if (reading.delete(id)) readPermissions(pool, id)
      }
      for (const id of reading) readPermissions(pool, id)
      await pool.drain()
      // The parses end after their reads, and may queue downloads: until both are done.
      while (converting.length > 0) {
        await Promise.all(converting.splice(0))
        await pool.drain()
      }
    }
  }
}

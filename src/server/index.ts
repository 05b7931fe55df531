/**
 * The local knowledge-base server: the platform's REST API on loopback,
 * persisted to a file, with fault injection and inspection for tests.
 */
import {readFileSync} from 'node:fs'
import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import type {KbItem, Person} from '../api/types.js'
import {browse} from './browse.js'
import {stamp} from './clock.js'
import {asPlatformStores} from '../dialect/index.js'
import {createFaults, type FailMode} from './faults.js'
import {handle, type Pipeline, type RequestLogEntry} from './http.js'
import {filePath, loadData, saveData, writeAtomic} from './persist.js'
import {seededRandom, shortId} from './random.js'
import {createRateLimiter, type RateLimitOptions} from './rate-limit.js'
import {KbStore} from './store.js'

export type {RequestLogEntry} from './http.js'
export type {FailMode} from './faults.js'
export {KbStore} from './store.js'

/** Options of `startServer`. */
export interface ServerOptions {
  /** 0 (default) picks a free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Persist to this JSON file; in memory when absent. */
  dataPath?: string
  /** The accepted bearer token (default `kbsync-local-token`). */
  token?: string
  /** Accepted by `POST /v4/auth` (defaults `local` / `local-key`). */
  login?: string
  securityKey?: string
  latencyMs?: number
  /** Store bodies re-serialised as the platform writes them (soft breaks hard, `\_`, `| --- |`): see `dialect/platform-form.ts`. */
  platformHabits?: boolean
  failRate?: number
  failModes?: FailMode[]
  seed?: number
  /** Default 5000 requests per 600 seconds. */
  rateLimit?: RateLimitOptions
  /** Structure depth cap (default 3). */
  maxDepth?: number
  /** GET of an article prefixes `# <title>` like the platform (default true). */
  prefixTitle?: boolean
  /** Users known to the permissions endpoints (default ids 1001-1005). */
  users?: Person[]
}

/** A running local server. */
export interface RunningServer {
  apiUrl: string
  filesUrl: string
  token: string
  close(): Promise<void>
  requestLog(): RequestLogEntry[]
  counts(): Record<string, number>
  resetLog(): void
  webEdit(id: string, change: {title?: string; body?: string}): KbItem
  items(): KbItem[]
  setFaults(faults: {failRate?: number; latencyMs?: number; failModes?: FailMode[]; rateLimit?: RateLimitOptions}): void
  revokeToken(token: string): void
  expireToken(token: string): void
}

/** The default token of the local server. */
export const localToken = 'kbsync-local-token'

const defaultUsers: Person[] = [1001, 1002, 1003, 1004, 1005].map((id, i) => ({
  id,
  first_name: ['Ada', 'Boris', 'Chen', 'Dana', 'Eli'][i],
  last_name: 'Local',
  email: `user${id}@local.test`,
  type: 'user'
}))
const apiPerson: Person = {id: 1, first_name: 'API', last_name: 'User', type: 'bot'}
const webPerson: Person = {id: 2, first_name: 'Web', last_name: 'Editor', type: 'user'}

/** Starts the local knowledge-base server. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const token = options.token ?? localToken
  const persisted = options.dataPath ? loadData(options.dataPath) : undefined
  const random = seededRandom(options.seed ?? Date.now())
  const urls = {apiUrl: '', filesUrl: ''}
  const memoryFiles = new Map<string, Uint8Array>()
  const store = new KbStore(
    {
      newId: () => shortId(random),
      now: () => stamp(),
      fileUrl: (guid) => `${urls.filesUrl}/services/kb?Id=${guid}`,
      users: options.users ?? defaultUsers,
      ...(options.platformHabits ? {storeBody: asPlatformStores} : {})
    },
    persisted
  )
  const tokens = {valid: new Set([token, ...(persisted?.tokens ?? [])]), revoked: new Set<string>(), expired: new Set<string>()}
  const issued = new Set(persisted?.tokens ?? [])
  const save = () => {
    if (options.dataPath) saveData(options.dataPath, {schemaVersion: 1, ...store.data(), tokens: [...issued]})
  }
  const log: RequestLogEntry[] = []
  const limiter = createRateLimiter(options.rateLimit ?? {limit: 5000, windowSeconds: 600})
  const faults = createFaults(
    {failRate: options.failRate ?? 0, failModes: options.failModes ?? ['500', 'drop-before', 'drop-after'], latencyMs: options.latencyMs ?? 0},
    options.seed ?? 1
  )
  const pipeline: Pipeline = {
    tokens,
    credentials: {login: options.login ?? 'local', securityKey: options.securityKey ?? 'local-key'},
    urls,
    issueToken() {
      const fresh = `local-${shortId(random)}${shortId(random)}`.toLowerCase()
      tokens.valid.add(fresh)
      issued.add(fresh)
      save()
      return fresh
    },
    faults,
    limiter,
    log,
    editor: apiPerson,
    route: {
      store,
      editor: apiPerson,
      maxDepth: options.maxDepth ?? 3,
      prefixTitle: options.prefixTitle ?? true,
      saveFile(file, bytes) {
        if (options.dataPath) writeAtomic(filePath(options.dataPath, file.guid), bytes)
        else memoryFiles.set(file.guid, bytes)
        store.addFile(file)
      },
      readFile(guid) {
        if (!options.dataPath) return memoryFiles.get(guid)
        try {
          return readFileSync(filePath(options.dataPath, guid))
        } catch {
          return undefined
        }
      }
    },
    afterWrite: save,
    browse: (pathname) => browse(store, pathname, urls.apiUrl, (guid) => pipeline.route.readFile(guid))
  }

  const server = createServer((request, response) => {
    handle(pipeline, request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end()
    })
  })
  server.keepAliveTimeout = 30_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve)
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  urls.filesUrl = `http://${host}:${address.port}`
  urls.apiUrl = `${urls.filesUrl}/v4`
  save()

  return {
    apiUrl: urls.apiUrl,
    filesUrl: urls.filesUrl,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
    requestLog: () => [...log],
    counts() {
      const counts: Record<string, number> = {writes: 0}
      for (const entry of log) {
        counts[entry.endpoint] = (counts[entry.endpoint] ?? 0) + 1
        if (entry.write) counts.writes! += 1
      }
      return counts
    },
    resetLog: () => void log.splice(0),
    webEdit(id, change) {
      const item = store.webEdit(id, change, webPerson)
      save()
      return item
    },
    items: () => store.all(),
    setFaults(next) {
      faults.set({failRate: next.failRate, latencyMs: next.latencyMs, failModes: next.failModes})
      if (next.rateLimit) limiter.set(next.rateLimit)
    },
    revokeToken: (t) => void tokens.revoked.add(t),
    expireToken: (t) => void tokens.expired.add(t)
  }
}

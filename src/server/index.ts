/**
 * The local knowledge-base server: the platform's REST API on loopback,
 * persisted to a file, with fault injection and inspection for tests.
 * Beyond loopback it takes only the operator's token and credentials (see
 * `exposure.ts`).
 */
import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import type {KbItem, Person} from '../api/types.js'
import {browse} from './browse.js'
import {stamp} from './clock.js'
import {asPlatformStores} from '../dialect/index.js'
import {defaultBodyLimits, type BodyLimits} from './body.js'
import {decideAccess, hostNames, localToken} from './exposure.js'
import {createBurstDropper} from './burst-drops.js'
import {createFaults, type FailMode} from './faults.js'
import {resolveHabits, type PlatformHabits, type ResolvedHabits} from './habits.js'
import {diskFileStore, memoryFileStore} from './file-store.js'
import {handle, type Pipeline, type RequestLogEntry} from './http.js'
import {filesDir, openDataFile} from './persist.js'
import {seededRandom, shortId} from './random.js'
import {createRateLimiter, type RateLimitOptions} from './rate-limit.js'
import {KbStore} from './store.js'
import {createTokens} from './tokens.js'

export type {RequestLogEntry} from './http.js'
export type {FailMode} from './faults.js'
export type {BodyLimits} from './body.js'
export type {PlatformHabits, ResolvedHabits} from './habits.js'
export {describeHabits} from './habits.js'
export {KbStore} from './store.js'
export {decideAccess, ExposureError, isLoopbackName, localCredentials, localToken} from './exposure.js'

/** Options of `startServer`. */
export interface ServerOptions {
  /** 0 (default) picks a free port. */
  port?: number
  /** Default 127.0.0.1. Any other address exposes the server: it then needs `token` and refuses the public defaults. */
  host?: string
  /** Host names requests may address besides the loopback ones and `host` (e.g. the machine's name when `host` is 0.0.0.0). */
  allowedHosts?: string[]
  /** Persist to this JSON file (with a log beside it, `<file>.log`); in memory when absent. */
  dataPath?: string
  /** The accepted bearer token (default `kbsync-local-token`, on loopback only). */
  token?: string
  /** Accepted by `POST /v4/auth` (and `/api/v4/auth`), both or neither (defaults `local` / `local-key` on loopback; beyond it, no login without them). */
  login?: string
  securityKey?: string
  /** Request size limits (defaults: 16 MiB of JSON, 256 MiB per file). */
  limits?: Partial<BodyLimits>
  latencyMs?: number
  /**
   * The real platform's habits, all off by default (see `habits.ts`): `true`
   * stores bodies re-serialised as the platform writes them and fails
   * writes of bodies with nested fences; an object picks habits one by one,
   * e.g. `{dropOver: 20}` drops connections while more than 20 requests
   * arrived within a second, `{loginPersonIds: [1, 7]}` makes `/auth` need
   * a `person_id`.
   */
  platformHabits?: boolean | PlatformHabits
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
  /** The platform habits it was started with. */
  habits: ResolvedHabits
  close(): Promise<void>
  requestLog(): RequestLogEntry[]
  counts(): Record<string, number>
  resetLog(): void
  webEdit(id: string, change: {title?: string; body?: string}): KbItem
  items(): KbItem[]
  /** Changes the injected faults while running; `dropOver` 0 stops dropping connections. */
  setFaults(faults: {failRate?: number; latencyMs?: number; failModes?: FailMode[]; rateLimit?: RateLimitOptions; dropOver?: number}): void
  revokeToken(token: string): void
  expireToken(token: string): void
}

const defaultUsers: Person[] = [1001, 1002, 1003, 1004, 1005].map((id, i) => ({
  id,
  first_name: ['Ada', 'Boris', 'Chen', 'Dana', 'Eli'][i],
  last_name: 'Local',
  email: `user${id}@local.test`,
  type: 'user'
}))
const apiPerson: Person = {id: 1, first_name: 'API', last_name: 'User', type: 'bot'}
const webPerson: Person = {id: 2, first_name: 'Web', last_name: 'Editor', type: 'user'}

/** Starts the local knowledge-base server; rejects with an `ExposureError` for a token or login that would let strangers in. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const bind = options.host ?? '127.0.0.1'
  const habits = resolveHabits(options.platformHabits)
  const access = decideAccess(bind, {token: options.token, login: options.login, securityKey: options.securityKey})
  const dataFile = options.dataPath ? openDataFile(options.dataPath) : undefined
  const persisted = dataFile?.load()
  const files = options.dataPath ? diskFileStore(filesDir(options.dataPath)) : memoryFileStore()
  const random = seededRandom(options.seed ?? Date.now())
  const urls = {apiUrl: '', filesUrl: ''}
  const store = new KbStore(
    {
      newId: () => shortId(random),
      now: () => stamp(),
      fileUrl: (guid) => `${urls.filesUrl}/services/kb?Id=${guid}`,
      users: options.users ?? defaultUsers,
      ...(habits.storeBodies ? {storeBody: asPlatformStores} : {})
    },
    persisted
  )
  const tokens = createTokens(access.token, access.credentials, persisted)
  /** Rewrites the snapshot from the whole store and empties the log. */
  const compact = () => dataFile?.compact({schemaVersion: 1, ...store.data(), ...tokens.persisted()})
  /** Compacts unless the snapshot alone already holds the store (a start or stop of a large store need not rewrite it). */
  const settle = () => {
    if (dataFile && !dataFile.isClean()) compact()
  }
  /** Persists what the last operation changed: a few lines appended to the log. */
  const persist = () => {
    const changes = store.takeChanges()
    if (!dataFile) return
    dataFile.append(changes)
    if (dataFile.wantsCompaction()) compact()
  }
  const log: RequestLogEntry[] = []
  const limiter = createRateLimiter(options.rateLimit ?? {limit: 5000, windowSeconds: 600})
  const faults = createFaults(
    {failRate: options.failRate ?? 0, failModes: options.failModes ?? ['500', 'drop-before', 'drop-after'], latencyMs: options.latencyMs ?? 0},
    options.seed ?? 1
  )
  const pipeline: Pipeline = {
    tokens: tokens.sets,
    credentials: access.credentials,
    loginPersonIds: habits.loginPersonIds,
    urls,
    hosts: {names: hostNames(bind, options.allowedHosts), port: 0},
    issueToken() {
      const fresh = `local-${shortId(random)}${shortId(random)}`.toLowerCase()
      tokens.add(fresh)
      // Logins are rare; a snapshot keeps the token list whole in one place.
      compact()
      return fresh
    },
    faults,
    drops: createBurstDropper(habits.dropOver),
    limiter,
    log,
    editor: apiPerson,
    route: {
      store,
      editor: apiPerson,
      maxDepth: options.maxDepth ?? 3,
      prefixTitle: options.prefixTitle ?? true,
      files,
      nestedFenceFails: habits.nestedFenceFails,
      limits: {
        jsonBytes: options.limits?.jsonBytes ?? defaultBodyLimits.jsonBytes,
        fileBytes: options.limits?.fileBytes ?? defaultBodyLimits.fileBytes
      }
    },
    afterWrite: persist,
    browse: (pathname) => browse(store, pathname, urls.apiUrl, files)
  }

  const server = createServer((request, response) => {
    handle(pipeline, request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, {'X-Content-Type-Options': 'nosniff'}).end()
    })
  })
  server.keepAliveTimeout = 30_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, bind, resolve)
  }).catch((error: unknown) => {
    dataFile?.close()
    throw error
  })
  const address = server.address() as AddressInfo
  pipeline.hosts.port = address.port
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  urls.filesUrl = `http://${host}:${address.port}`
  urls.apiUrl = `${urls.filesUrl}/v4`
  settle()

  let closed: Promise<void> | undefined
  return {
    apiUrl: urls.apiUrl,
    filesUrl: urls.filesUrl,
    token: access.token,
    habits,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => {
          // Stopped cleanly: the snapshot alone holds everything.
          settle()
          dataFile?.close()
          resolve()
        })
      })),
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
      persist()
      return item
    },
    items: () => store.all(),
    setFaults(next) {
      faults.set({failRate: next.failRate, latencyMs: next.latencyMs, failModes: next.failModes})
      if (next.rateLimit) limiter.set(next.rateLimit)
      if (next.dropOver !== undefined) pipeline.drops.set(next.dropOver)
    },
    revokeToken: (t) => void tokens.sets.revoked.add(t),
    expireToken: (t) => void tokens.sets.expired.add(t)
  }
}

/**
 * The local knowledge-base server: the platform's REST API on loopback,
 * persisted to a file, with fault injection and inspection for tests.
 * Beyond loopback it takes only the operator's token and credentials (see
 * `exposure.ts`).
 */
import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import type {Person} from '../api/types.js'
import {browse} from './browse.js'
import {stamp} from './clock.js'
import {asPlatformStores} from '../dialect/index.js'
import {defaultBodyLimits} from './body.js'
import {decideAccess, hostNames, type Access} from './exposure.js'
import {createBurstDropper} from './burst-drops.js'
import {createFaults} from './faults.js'
import {resolveHabits, type ResolvedHabits} from './habits.js'
import {handle, type Pipeline} from './http.js'
import type {RunningServer, ServerOptions} from './options.js'
import {seededRandom, shortId} from './random.js'
import {createRateLimiter} from './rate-limit.js'
import {createRequestLog} from './request-log.js'
import {runningServer} from './running.js'
import {openStorage, type Storage} from './storage.js'

export type {FailMode} from './faults.js'
export type {PlatformHabits, ResolvedHabits} from './habits.js'
export {describeHabits} from './habits.js'
export {KbStore} from './store.js'
export type {BodyLimits, Endpoint, RequestLogEntry, RunningServer, ServerOptions} from './options.js'
export {decideAccess, ExposureError, isLoopbackName, localCredentials, localToken} from './exposure.js'

const defaultUsers: Person[] = [1001, 1002, 1003, 1004, 1005].map((id, i) => ({
  id,
  first_name: ['Ada', 'Boris', 'Chen', 'Dana', 'Eli'][i],
  last_name: 'Local',
  email: `user${id}@local.test`,
  type: 'user'
}))
const apiPerson: Person = {id: 1, first_name: 'API', last_name: 'User', type: 'bot'}

/** Starts the local knowledge-base server; rejects with an `ExposureError` for a token or login that would let strangers in. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const bind = options.host ?? '127.0.0.1'
  const habits = resolveHabits(options.platformHabits)
  const access = decideAccess(bind, {token: options.token, login: options.login, securityKey: options.securityKey})
  const random = seededRandom(options.seed ?? Date.now())
  const urls = {apiUrl: '', filesUrl: ''}
  const storage = openStorage({
    dataPath: options.dataPath,
    access,
    context: {
      newId: () => shortId(random),
      now: () => stamp(),
      fileUrl: (guid) => `${urls.filesUrl}/services/kb?Id=${guid}`,
      // The API's own account is a user of the organisation too: it may be named as an editor (kbsync's lock).
      users: [apiPerson, ...(options.users ?? defaultUsers)],
      ...(options.permissionsMoveStamp === false ? {permissionsKeepStamp: true} : {}),
      ...(habits.storeBodies ? {storeBody: asPlatformStores} : {})
    }
  })
  const pipeline = createPipeline(options, {bind, habits, access, random, urls, storage})
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
    storage.dataFile?.close()
    throw error
  })
  const address = server.address() as AddressInfo
  pipeline.hosts.port = address.port
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  urls.filesUrl = `http://${host}:${address.port}`
  urls.apiUrl = `${urls.filesUrl}/v4`
  storage.settle()
  return runningServer({server, pipeline, storage, habits, token: access.token})
}

/** The server's moving parts as the request pipeline sees them, over the opened storage. */
function createPipeline(
  options: ServerOptions,
  parts: {
    bind: string
    habits: ResolvedHabits
    access: Access
    random: () => number
    urls: Pipeline['urls']
    storage: Storage
  }
): Pipeline {
  const {habits, access, random, urls, storage} = parts
  const {store, tokens, files} = storage
  return {
    tokens: tokens.sets,
    credentials: access.credentials,
    loginPersonIds: habits.loginPersonIds,
    urls,
    hosts: {names: hostNames(parts.bind, options.allowedHosts), port: 0},
    issueToken() {
      const fresh = `local-${shortId(random)}${shortId(random)}`.toLowerCase()
      tokens.add(fresh)
      // Logins are rare; a snapshot keeps the token list whole in one place.
      storage.compact()
      return fresh
    },
    faults: createFaults(
      {
        failRate: options.failRate ?? 0,
        failModes: options.failModes ?? ['500', 'drop-before', 'drop-after'],
        latencyMs: options.latencyMs ?? 0
      },
      options.seed ?? 1
    ),
    drops: createBurstDropper(habits.dropOver),
    limiter: createRateLimiter(options.rateLimit ?? {limit: 5000, windowSeconds: 600}),
    log: createRequestLog(options.requestLogLimit),
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
    afterWrite: storage.persist,
    browse: (pathname) => browse(store, pathname, urls.apiUrl, files)
  }
}

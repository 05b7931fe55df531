/**
 * The request pipeline of the local server: Host check, dropped bursts,
 * latency, login, routing (an unknown path is 404 whatever the token), auth,
 * rate limit, faults, then the route; every answer carries the rate-limit
 * headers and `nosniff`.
 */
import type {IncomingMessage, ServerResponse} from 'node:http'
import type {Person} from '../api/types.js'
import {KbServerError} from './errors.js'
import {isAllowedHost, isLoopbackName, type Credentials} from './exposure.js'
import {answerer, rateKey, type Answer} from './http-answer.js'
import {authenticate, authPaths, bearer, checkToken} from './http-auth.js'
import type {BurstDropper} from './burst-drops.js'
import type {createFaults} from './faults.js'
import type {createRateLimiter} from './rate-limit.js'
import type {RequestLogEntry} from './options.js'
import type {RequestLog} from './request-log.js'
import {matchRoute, type FileAnswer, type Route, type RouteRequest} from './routes.js'
import type {TokenSets} from './tokens.js'

export type {RequestLogEntry} from './options.js'

/** The server's moving parts, as the pipeline sees them. */
export interface Pipeline {
  tokens: TokenSets
  /** What `/auth` accepts; undefined: no login at all. */
  credentials: Credentials | undefined
  /** The persons the login belongs to, one per organisation (the platform habit `loginPersonIds`); empty: `person_id` is ignored. */
  loginPersonIds: readonly number[]
  urls: {apiUrl: string; filesUrl: string}
  /** The names a request may address besides the loopback ones, and the port it must name. */
  hosts: {names: readonly string[]; port: number}
  issueToken(): string
  faults: ReturnType<typeof createFaults>
  /** The platform's dropped connections under a quick series of requests (off unless `platformHabits.dropOver`). */
  drops: BurstDropper
  limiter: ReturnType<typeof createRateLimiter>
  log: RequestLog
  editor: Person
  route: Omit<RouteRequest, 'url' | 'message'>
  afterWrite(): Promise<void>
  browse(pathname: string): string | FileAnswer
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Handles one HTTP request. */
export async function handle(pipeline: Pipeline, message: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(message.url ?? '/', 'http://local')
  const method = message.method ?? 'GET'
  const entry: RequestLogEntry = {
    method,
    path: loggedPath(url),
    status: 0,
    endpoint: 'unknown',
    write: false,
    at: Date.now()
  }
  pipeline.log.record(entry)
  const answer = answerer(pipeline, message, response, entry)

  // A page of another site whose name resolves to this server (DNS rebinding) gets nothing, whatever the path.
  if (!isAllowedHost(message.headers.host, pipeline.hosts.port, pipeline.hosts.names)) {
    answer(403, {
      error_code: 'forbidden_host',
      error: `This server does not answer to the host '${(message.headers.host ?? '').slice(0, 100)}'.`
    })
    return
  }

  if (method === 'GET' && (url.pathname === '/' || url.pathname.startsWith('/browse/'))) {
    entry.endpoint = 'browse'
    serveBrowse(pipeline, message, url, answer)
    return
  }
  const isLogin = method === 'POST' && authPaths.includes(url.pathname)
  const route = isLogin ? undefined : matchRoute(method, url.pathname)
  entry.endpoint = isLogin ? 'auth' : (route?.endpoint ?? 'unknown')
  entry.write = route?.write ?? false
  // Like the platform, a burst loses connections before anything else looks at the request (token, route, body).
  if (pipeline.drops.arrive()) {
    entry.faulted = 'drop-burst'
    message.socket.destroy()
    return
  }
  if (pipeline.faults.options.latencyMs > 0) await sleep(pipeline.faults.options.latencyMs)
  if (isLogin) {
    await authenticate(pipeline, message, answer)
    return
  }
  // Routing comes before the token, as on the platform: a wrong path is a 404 whatever the token, which tells a misconfigured URL from a bad token.
  if (!route) {
    answer(404, {error_code: 'not_found', error: `No endpoint ${method} ${url.pathname}.`})
    return
  }
  await serveRoute(pipeline, {message, url, route, entry}, answer)
}

/** The browse page: no token needed, so it is only shown to the machine itself. */
function serveBrowse(pipeline: Pipeline, message: IncomingMessage, url: URL, answer: Answer): void {
  if (!isLoopbackName(message.socket.remoteAddress ?? '')) {
    answer(403, {error_code: 'forbidden', error: 'The browse page is only served on loopback.'})
    return
  }
  try {
    answer(200, pipeline.browse(url.pathname))
  } catch (error) {
    const status = error instanceof KbServerError ? error.status : 500
    answer(status, {
      error_code: error instanceof KbServerError ? error.code : 'server_error',
      error: (error as Error).message
    })
  }
}

/** A request of a known endpoint: token, rate limit, injected faults, then the route itself. */
async function serveRoute(
  pipeline: Pipeline,
  request: {message: IncomingMessage; url: URL; route: Route; entry: RequestLogEntry},
  answer: Answer
): Promise<void> {
  const {message, url, route, entry} = request
  const authError = checkToken(pipeline, bearer(message))
  if (authError) {
    answer(401, {error_code: authError, error: 'Authorization failed.'})
    return
  }
  const rate = pipeline.limiter.take(rateKey)
  if (!rate.allowed) {
    answer(429, {error_code: 'too_many_requests', error: 'Too many requests.'}, rate.headers)
    return
  }

  const fault = pipeline.faults.next()
  if (fault) entry.faulted = fault
  if (fault === '500') {
    answer(500, {error_code: 'server_error', error: 'Injected failure.'}, rate.headers)
    return
  }
  if (fault === 'drop-before') {
    message.socket.destroy()
    return
  }
  try {
    const result = await route.handle({...pipeline.route, url, message}).finally(async () => {
      // A refused write may still have changed something worth keeping (an upload's file): persist whatever changed, on disk before the answer.
      if (route.write) await pipeline.afterWrite()
    })
    if (fault === 'drop-after') {
      message.socket.destroy()
      return
    }
    answer(200, result, rate.headers)
  } catch (error) {
    if (fault === 'drop-after') {
      message.socket.destroy()
      return
    }
    if (error instanceof KbServerError) {
      answer(error.status, {error_code: error.code, error: error.message}, rate.headers)
    } else {
      answer(500, {error_code: 'server_error', error: 'Internal error.'}, rate.headers)
    }
  }
}

/** The path and query as logged: values of secret-looking parameters are masked. */
function loggedPath(url: URL): string {
  const query = new URLSearchParams(url.search)
  for (const key of [...query.keys()]) if (/token|key|secret|password|auth/i.test(key)) query.set(key, '***')
  const search = query.toString()
  return url.pathname + (search ? `?${search}` : '')
}

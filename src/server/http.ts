/**
 * The request pipeline of the local server: Host check, dropped bursts,
 * latency, login, routing (an unknown path is 404 whatever the token), auth,
 * rate limit, faults, then the route; every answer carries the rate-limit
 * headers and `nosniff`.
 */
import type {IncomingMessage, ServerResponse} from 'node:http'
import type {AuthResult, Person} from '../api/types.js'
import {hasBody, readJson} from './body.js'
import {KbServerError} from './errors.js'
import {isAllowedHost, isLoopbackName, type Credentials} from './exposure.js'
import {nullsAsAbsent} from './fields.js'
import type {BurstDropper} from './burst-drops.js'
import type {createFaults} from './faults.js'
import type {createRateLimiter} from './rate-limit.js'
import {matchRoute, type Endpoint, type FileAnswer, type RouteRequest} from './routes.js'
import type {TokenSets} from './tokens.js'

/** One line of the request log (never a token). */
export interface RequestLogEntry {
  method: string
  path: string
  status: number
  endpoint: Endpoint | 'unknown'
  write: boolean
  faulted?: string
  at: number
}

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
  log: RequestLogEntry[]
  editor: Person
  route: Omit<RouteRequest, 'url' | 'message'>
  afterWrite(): void
  browse(pathname: string): string | FileAnswer
}

/** A login is a few short strings. */
const authBodyBytes = 65536

/** Where `POST /auth` is served: under the API (`{api_url}/auth`, on-premise) and at the accounts host's path. */
const authPaths = ['/v4/auth', '/api/v4/auth']

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The platform counts requests per user. Every token of this server (the
 * configured one and those `/auth` issues) belongs to its one API user, so
 * they share one budget: logging in again does not escape the limit.
 */
const rateKey = 'api-user'

/** Handles one HTTP request. */
export async function handle(pipeline: Pipeline, message: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(message.url ?? '/', 'http://local')
  const method = message.method ?? 'GET'
  const entry: RequestLogEntry = {method, path: loggedPath(url), status: 0, endpoint: 'unknown', write: false, at: Date.now()}
  pipeline.log.push(entry)
  const answer = (status: number, body: unknown, given?: Record<string, string>) => {
    entry.status = status
    // Every answer of the API carries the rate-limit headers, also those that spend no budget.
    const headers: Record<string, string | number> = {
      ...(given ?? (entry.endpoint === 'browse' || status === 403 ? {} : pipeline.limiter.peek(rateKey).headers)),
      'X-Content-Type-Options': 'nosniff'
    }
    // A body left unread (refused before reading it, or too large) is not drained: the connection closes instead.
    if (hasBody(message) && !message.complete) headers.Connection = 'close'
    if (isFile(body)) {
      response.writeHead(status, {...headers, 'Content-Type': 'application/octet-stream', 'Content-Length': body.size})
      body.open().on('error', () => response.destroy()).pipe(response)
      return
    }
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    const type = typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8'
    response.writeHead(status, {...headers, 'Content-Type': type})
    response.end(text)
  }

  // A page of another site whose name resolves to this server (DNS rebinding) gets nothing, whatever the path.
  if (!isAllowedHost(message.headers.host, pipeline.hosts.port, pipeline.hosts.names)) {
    answer(403, {error_code: 'forbidden_host', error: `This server does not answer to the host '${(message.headers.host ?? '').slice(0, 100)}'.`})
    return
  }

  if (method === 'GET' && (url.pathname === '/' || url.pathname.startsWith('/browse/'))) {
    entry.endpoint = 'browse'
    // The page needs no token, so it is only shown to the machine itself.
    if (!isLoopbackName(message.socket.remoteAddress ?? '')) {
      answer(403, {error_code: 'forbidden', error: 'The browse page is only served on loopback.'})
      return
    }
    try {
      answer(200, pipeline.browse(url.pathname))
    } catch (error) {
      const status = error instanceof KbServerError ? error.status : 500
      answer(status, {error_code: error instanceof KbServerError ? error.code : 'server_error', error: (error as Error).message})
    }
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

  const token = bearer(message)
  const authError = checkToken(pipeline, token)
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
    const result = await route.handle({...pipeline.route, url, message}).finally(() => {
      // A refused write may still have changed something worth keeping (an upload's file): persist whatever changed.
      if (route.write) pipeline.afterWrite()
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

async function authenticate(
  pipeline: Pipeline,
  message: IncomingMessage,
  answer: (status: number, body: unknown) => void
): Promise<void> {
  let body: {login?: unknown; security_key?: unknown; person_id?: unknown}
  try {
    body = nullsAsAbsent(await readJson(message, authBodyBytes))
  } catch (error) {
    const known = error instanceof KbServerError && error.status !== 400
    answer(known ? error.status : 400, known ? {error_code: error.code, error: error.message} : {error_code: 'invalid_request', error: 'The body must be a JSON object.'})
    return
  }
  const accepted = pipeline.credentials
  if (!accepted || body.login !== accepted.login || body.security_key !== accepted.securityKey) {
    const why = accepted ? 'Wrong login or security key.' : 'This server accepts no logins: it listens beyond loopback and was given no login and security key of its own.'
    answer(401, {error_code: 'invalid_credentials', error: why})
    return
  }
  const persons = pipeline.loginPersonIds
  if (body.person_id === undefined && persons.length > 1) {
    // The platform's answer to a login of several organisations without person_id: no hint of what is missing.
    answer(500, {error_code: 'server_error', error: 'Internal server error.'})
    return
  }
  if (body.person_id !== undefined && persons.length > 0 && !persons.includes(Number(body.person_id))) {
    answer(401, {error_code: 'invalid_credentials', error: 'Wrong login or security key.'})
    return
  }
  const result: AuthResult = {
    access_token: pipeline.issueToken(),
    api_url: pipeline.urls.apiUrl + '/',
    files_url: pipeline.urls.filesUrl + '/'
  }
  answer(200, result)
}

function bearer(message: IncomingMessage): string | undefined {
  const header = message.headers.authorization
  if (!header) return undefined
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  return match ? match[1] : ''
}

function checkToken(pipeline: Pipeline, token: string | undefined): string | undefined {
  if (token === undefined || token === '') return 'token_not_specified'
  if (pipeline.tokens.revoked.has(token)) return 'revoked_token'
  if (pipeline.tokens.expired.has(token)) return 'expired_token'
  if (!pipeline.tokens.valid.has(token)) return 'invalid_token'
  return undefined
}

/** The path and query as logged: values of secret-looking parameters are masked. */
function loggedPath(url: URL): string {
  const query = new URLSearchParams(url.search)
  for (const key of [...query.keys()]) if (/token|key|secret|password|auth/i.test(key)) query.set(key, '***')
  const search = query.toString()
  return url.pathname + (search ? `?${search}` : '')
}

function isFile(body: unknown): body is FileAnswer {
  return typeof body === 'object' && body !== null && (body as FileAnswer).kind === 'file'
}

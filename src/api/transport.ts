/**
 * The one place requests are sent: a keep-alive undici Agent, the shared
 * concurrency and rate gates (the concurrency adapting to dropped
 * connections: `congestion.ts`), per-attempt time-outs, retries with
 * backoff, re-login on an expired token, events and counters. Everything above it
 * (endpoints, uploads, the duplicate-safe create) describes calls as plain
 * `CallSpec`s.
 */
import {Readable} from 'node:stream'
import {Agent, request} from 'undici'
import {answerError, flatHeaders} from './answer-error.js'
import type {CallSpec} from './call-spec.js'
import {CongestionWindow} from './congestion.js'
import {ApiError, AuthError, NetworkError, safeCause} from './errors.js'
import {redact} from './redact.js'
import type {ClientEvent, ClientStats} from './events.js'
import {RateLimiter, Semaphore} from './limiter.js'
import type {ResolvedOptions} from './options.js'
import {backoffMs} from './retry-policy.js'
import {Session} from './session.js'

export type {BodySource, CallSpec, ResponseBody} from './call-spec.js'

const reauthCodes = new Set(['expired_token', 'revoked_token'])
/** Extra attempts of a request whose connection was dropped, each waiting half as long as the next (see `call`). */
const dropRungs = 3
const redirectStatuses = new Set([301, 302, 303, 307, 308])

/** The client's connection to the platform. */
export class Transport {
  readonly session: Session
  readonly stats: ClientStats = {requests: 0, retries: 0, rateLimitWaits: 0, byEndpoint: {}}
  /** The pool's size, halved by dropped connections and grown back by answers. */
  readonly window: CongestionWindow
  private readonly agent: Agent
  private readonly gate: Semaphore
  private readonly limiter: RateLimiter

  private closed = false

  constructor(readonly options: ResolvedOptions) {
    this.agent = new Agent({keepAliveTimeout: 10_000, connections: options.concurrency, headersTimeout: 0, bodyTimeout: 0})
    this.window = new CongestionWindow(options.concurrency)
    this.gate = new Semaphore(() => this.window.limit)
    this.limiter = new RateLimiter(options.concurrency)
    this.session = new Session(options, (spec) => this.call(spec))
  }

  /** Every secret the client knows, for redaction. */
  secrets(): string[] {
    return this.session.secrets()
  }

  /** Sends a call, with retries, re-login and rate limiting; resolves with the read answer. */
  async call<T>(spec: CallSpec<T>): Promise<T> {
    if (this.closed) throw new NetworkError(`${spec.method} ${spec.path}: the client is closed`, {method: spec.method, path: spec.path, retryable: false, errorCode: 'client_closed'})
    const {retries, maxRetryWaitMs, maxRateLimitWaitMs, retryBaseMs} = this.options
    const rateLimitTries = Math.max(10, retries * 2)
    let failures = 0
    let serverErrors = 0
    let rateLimited = 0
    let reauthed = false
    let attempt = 0
    for (;;) {
      attempt++
      if (spec.auth !== false) await this.session.ready()
      const token = this.session.token
      try {
        return await this.attempt(spec, attempt, token)
      } catch (error) {
        if (!(error instanceof ApiError)) throw error
        if (error.status === 401 && spec.auth !== false && error.errorCode && reauthCodes.has(error.errorCode)) {
          if (!this.session.canLogin) {
            throw new AuthError(
              `The access token was rejected (${error.errorCode}) on ${spec.method} ${error.path}: refresh KBSYNC_TOKEN, or set KBSYNC_LOGIN and KBSYNC_SECURITY_KEY so kbsync can log in by itself`,
              {status: 401, errorCode: error.errorCode, method: spec.method, path: error.path}
            )
          }
          if (reauthed) throw new AuthError(`The access token was rejected again (${error.errorCode}) right after logging in on ${spec.method} ${error.path}`, {status: 401, errorCode: error.errorCode, method: spec.method, path: error.path})
          reauthed = true
          this.emit({type: 'reauth', method: spec.method, path: error.path, status: 401, errorCode: error.errorCode, attempt})
          await this.session.renew(token)
          this.stats.retries++
          continue
        }
        if (error.status === 401 && spec.auth !== false && token !== undefined) throw this.session.refused(error, token)
        if (error.status === 429) {
          rateLimited++
          const wait = error.retryAfterMs ?? backoffMs(rateLimited, retryBaseMs, maxRetryWaitMs)
          if (wait > maxRateLimitWaitMs) {
            throw new ApiError(
              `Rate limited on ${spec.method} ${error.path}: the server asks to wait ${Math.ceil(wait / 1000)} s, longer than the ${Math.round(maxRateLimitWaitMs / 1000)} s allowed (maxRateLimitWaitMs); try again later`,
              {status: 429, errorCode: error.errorCode ?? 'too_many_requests', method: spec.method, path: error.path, retryable: true}
            )
          }
          if (rateLimited > rateLimitTries) throw error
          // Shared: every request of this client waits for the same reset.
          this.limiter.exhaustedUntil(Date.now() + wait)
          this.stats.retries++
          this.emit({type: 'retry', method: spec.method, path: error.path, status: 429, errorCode: error.errorCode, attempt, waitMs: wait})
          continue
        }
        if (!error.retryable) throw error
        failures++
        if (error.status !== undefined) serverErrors++
        // A dropped connection climbs a finer ladder to the same top wait: three more, shorter waits first
        // (a burst of drops is often short, and the halved pool already sends less).
        const dropped = error instanceof NetworkError && error.errorCode !== 'timeout'
        if (failures >= retries + (dropped ? dropRungs : 0) || serverErrors > (spec.serverErrorRetries ?? retries)) throw error
        const wait = backoffMs(failures, dropped ? retryBaseMs / 2 ** dropRungs : retryBaseMs, maxRetryWaitMs)
        this.stats.retries++
        this.emit({type: 'retry', method: spec.method, path: error.path, status: error.status, errorCode: error.errorCode ?? error.cause?.code, attempt, waitMs: wait})
        // A call waiting to resend a dropped request keeps a place in the pool: a freed place would only
        // let the next request into the same burst (a drop is answered at once), and the halved pool would not slow anything.
        if (error instanceof NetworkError) await this.holding(() => sleep(wait))
        else await sleep(wait)
        if (spec.onFailure === 'verify' && spec.verify) {
          const found = await spec.verify()
          if (found !== undefined) return found
        }
      }
    }
  }

  /** One HTTP exchange; throws `ApiError`s with `retryable` set for 5xx and network failures. */
  private async attempt<T>(spec: CallSpec<T>, attempt: number, token: string | undefined): Promise<T> {
    const url = this.url(spec)
    const path = this.displayPath(spec, url)
    const rateWait = this.limiter.reserve()
    if (rateWait > 0) {
      const wait = Math.min(rateWait, this.options.maxRateLimitWaitMs)
      this.stats.rateLimitWaits++
      this.emit({type: 'rate-limit-wait', method: spec.method, path, attempt, waitMs: wait})
      await sleep(wait)
    }
    const release = await this.gate.acquire()
    const round = this.window.epoch
    const timeoutMs = spec.timeoutMs ?? this.options.timeoutMs
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), timeoutMs)
    try {
      const headers: Record<string, string> = {accept: 'application/json'}
      let body: string | Buffer | Readable | undefined
      if (spec.json !== undefined) {
        body = JSON.stringify(spec.json)
        headers['content-type'] = 'application/json'
      } else if (spec.body) {
        const source = await spec.body()
        body = typeof source.body === 'string' || Buffer.isBuffer(source.body) ? source.body : Readable.from(source.body)
        Object.assign(headers, source.headers)
      }
      if (spec.auth !== false && token) headers.authorization = `Bearer ${token}`
      this.stats.requests++
      this.stats.byEndpoint[spec.endpoint] = (this.stats.byEndpoint[spec.endpoint] ?? 0) + 1
      this.emit({type: 'request', method: spec.method, path, attempt})
      const response = await request(url, {method: spec.method, headers, body, signal: controller.signal, dispatcher: this.agent})
      if (this.window.answer()) this.emit({type: 'concurrency', method: spec.method, path, attempt, limit: this.window.limit})
      const answerHeaders = flatHeaders(response.headers)
      this.limiter.observe(answerHeaders)
      if (response.statusCode >= 200 && response.statusCode < 300) {
        const result = spec.read ? await spec.read(response.body, answerHeaders) : ((await response.body.json()) as T)
        this.emit({type: 'response', method: spec.method, path, status: response.statusCode, attempt})
        return result
      }
      if (spec.redirect && redirectStatuses.has(response.statusCode) && answerHeaders.location) {
        await response.body.dump()
        this.emit({type: 'response', method: spec.method, path, status: response.statusCode, attempt})
        return spec.redirect(answerHeaders.location)
      }
      const text = await response.body.text().catch(() => '')
      const failure = answerError({method: spec.method, path, status: response.statusCode, text, headers: answerHeaders}, this.secrets())
      this.emit({type: 'response', method: spec.method, path, status: response.statusCode, attempt, errorCode: failure.errorCode})
      throw failure
    } catch (error) {
      if (error instanceof ApiError) throw error
      const secrets = this.secrets()
      const cause = safeCause(error, secrets)
      const reason = controller.signal.aborted ? `timed out after ${Math.round(timeoutMs / 1000)} s` : `${cause.code ?? cause.name}: ${cause.message}`
      this.emit({type: 'response', method: spec.method, path, attempt, errorCode: cause.code ?? (controller.signal.aborted ? 'timeout' : 'network_error')})
      if (this.window.dropped(round)) this.emit({type: 'concurrency', method: spec.method, path, attempt, limit: this.window.limit})
      throw new NetworkError(redact(`${spec.method} ${path} failed: ${reason}`, secrets), {
        method: spec.method,
        path,
        retryable: true,
        errorCode: controller.signal.aborted ? 'timeout' : 'network_error',
        cause
      })
    } finally {
      clearTimeout(timer)
      release()
    }
  }

  /** Runs `task` holding a place in the pool. */
  private async holding<T>(task: () => Promise<T>): Promise<T> {
    const release = await this.gate.acquire()
    try {
      return await task()
    } finally {
      release()
    }
  }

  private url(spec: CallSpec<unknown>): string {
    const query = spec.query && Object.keys(spec.query).length ? `?${new URLSearchParams(spec.query).toString()}` : ''
    switch (spec.base) {
      case 'api':
        return `${this.session.apiUrl}${spec.path}${query}`
      case 'upload':
        return this.session.filesUrl ? `${this.session.filesUrl}/v4/files/upload` : `${this.session.apiUrl}/files/upload`
      case 'auth':
        return `${this.options.accountsUrl}/auth`
      case 'url':
        return spec.path + query
    }
  }

  private displayPath(spec: CallSpec<unknown>, url: string): string {
    if (spec.base === 'api') return url.slice(this.session.apiUrl.length)
    if (spec.base === 'auth') return '/auth'
    const parsed = new URL(url)
    // A URL outside our own services may carry its own credentials in the query (a signed link): events and messages show its path only.
    return spec.auth === false ? parsed.pathname : parsed.pathname + parsed.search
  }

  /** Reports an event; a throwing listener never breaks a request. */
  emit(event: ClientEvent): void {
    try {
      this.options.onEvent?.(event)
    } catch {
      // A logging callback must not turn into a failed sync.
    }
  }

  /** Closes the connections; a second call does nothing, and a call made after it fails at once. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.agent.close()
  }
}

/** Resolves after `ms` milliseconds. */
function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()
}

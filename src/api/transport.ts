/**
 * The one place requests are sent: a keep-alive undici Agent (`connection.ts`), the shared
 * concurrency and rate gates (the concurrency adapting to dropped
 * connections: `congestion.ts`), per-attempt time-outs, retries with
 * backoff, re-login on an expired token, events and counters. Everything above it
 * (endpoints, uploads, the duplicate-safe create) describes calls as plain
 * `CallSpec`s.
 */
import {answerError, flatHeaders, readApiJson} from './answer-error.js'
import {bodyBytes, BodyLimits, refusedTail} from './body-limit.js'
import type {CallSpec, CallTally as Tally} from './call-spec.js'
import {callUrl, displayPath, requestBody} from './call-request.js'
import {CongestionWindow} from './congestion.js'
import {openConnection, type Connection} from './connection.js'
import {clientClosed, rateLimitTooLong, tokenRejected} from './call-errors.js'
import {startDeadline} from './deadline.js'
import {ApiError, NetworkError} from './errors.js'
import {dropError} from './network-failure.js'
import type {ClientEvent, ClientStats} from './events.js'
import {RateLimiter, Semaphore} from './limiter.js'
import type {ResolvedOptions} from './options.js'
import {backoffMs, sleep} from './retry-policy.js'
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
  private connection: Promise<Connection> | undefined
  private readonly gate: Semaphore
  private readonly limiter: RateLimiter
  /** The body sizes servers refused (413) in this run. */
  private readonly bodyLimits = new BodyLimits()

  private closed = false

  constructor(readonly options: ResolvedOptions) {
    this.window = new CongestionWindow(options.concurrency)
    this.gate = new Semaphore(() => this.window.limit)
    this.limiter = new RateLimiter(options.concurrency)
    this.session = new Session(options, (spec) => this.call(spec))
  }

  /** Every secret the client knows, for redaction. */
  secrets(): string[] {
    return this.session.secrets()
  }

  /** Sends a call, with retries, re-login and rate limiting; resolves with the read answer. A stopped client (`signal`) sends nothing more, not even a retry. */
  async call<T>(spec: CallSpec<T>): Promise<T> {
    if (this.closed) throw clientClosed(spec)
    const tally: Tally = {attempt: 0, failures: 0, serverErrors: 0, rateLimited: 0, reauthed: false, brokenWrites: 0}
    for (;;) {
      this.options.signal?.throwIfAborted()
      tally.attempt++
      if (spec.auth !== false) await this.session.ready()
      const token = this.session.token
      try {
        return await this.attempt(spec, tally, token)
      } catch (error) {
        if (!(error instanceof ApiError)) throw error
        if (error.status === 401 && spec.auth !== false && error.errorCode && reauthCodes.has(error.errorCode)) {
          await this.relogin(spec, error, tally, token)
          continue
        }
        if (error.status === 401 && spec.auth !== false && token !== undefined) throw this.session.refused(error, token)
        if (error.status === 429) {
          this.waitForRateLimit(spec, error, tally)
          continue
        }
        const refused = this.bodyLimits.afterBrokenWrite(spec, error, tally)
        if (!refused) await this.waitToRetry(spec, error, tally)
        if (spec.onFailure === 'verify' && spec.verify) {
          const found = await spec.verify()
          if (found !== undefined) return found
        }
        if (refused) throw refused
      }
    }
  }

  /** An expired or revoked token: logs in again once, or throws what to do. */
  private async relogin(
    spec: CallSpec<unknown>,
    error: ApiError,
    tally: Tally,
    token: string | undefined
  ): Promise<void> {
    if (!this.session.canLogin || tally.reauthed) throw tokenRejected(spec, error, this.session.canLogin)
    tally.reauthed = true
    this.emit({
      type: 'reauth',
      method: spec.method,
      path: error.path,
      status: 401,
      errorCode: error.errorCode,
      attempt: tally.attempt
    })
    await this.session.renew(token)
    this.stats.retries++
  }

  /** A 429: every request of this client waits for the reset the server names; throws when that is too long or too often. */
  private waitForRateLimit(spec: CallSpec<unknown>, error: ApiError, tally: Tally): void {
    const {retries, maxRetryWaitMs, maxRateLimitWaitMs, retryBaseMs} = this.options
    tally.rateLimited++
    const wait = error.retryAfterMs ?? backoffMs(tally.rateLimited, retryBaseMs, maxRetryWaitMs)
    if (wait > maxRateLimitWaitMs) throw rateLimitTooLong(spec, error, wait, maxRateLimitWaitMs)
    if (tally.rateLimited > Math.max(10, retries * 2)) throw error
    // Shared: every request of this client waits for the same reset.
    this.limiter.exhaustedUntil(Date.now() + wait)
    this.stats.retries++
    this.emit({
      type: 'retry',
      method: spec.method,
      path: error.path,
      status: 429,
      errorCode: error.errorCode,
      attempt: tally.attempt,
      waitMs: wait
    })
  }

  /** A 5xx or a network failure: waits before the next attempt, or throws when no attempt is left. */
  private async waitToRetry(spec: CallSpec<unknown>, error: ApiError, tally: Tally): Promise<void> {
    const {retries, maxRetryWaitMs, retryBaseMs} = this.options
    if (!error.retryable) throw error
    tally.failures++
    if (error.status !== undefined) tally.serverErrors++
    // A dropped connection climbs a finer ladder to the same top wait: three more, shorter waits first
    // (a burst of drops is often short, and the halved pool already sends less).
    const dropped = error instanceof NetworkError && error.errorCode !== 'timeout'
    if (
      tally.failures >= retries + (dropped ? dropRungs : 0) ||
      tally.serverErrors > (spec.serverErrorRetries ?? retries)
    )
      throw error
    const wait = backoffMs(tally.failures, dropped ? retryBaseMs / 2 ** dropRungs : retryBaseMs, maxRetryWaitMs)
    this.stats.retries++
    this.emit({
      type: 'retry',
      method: spec.method,
      path: error.path,
      status: error.status,
      errorCode: error.errorCode ?? error.cause?.code,
      attempt: tally.attempt,
      waitMs: wait
    })
    // A call waiting to resend a dropped request keeps a place in the pool: a freed place would only
    // let the next request into the same burst (a drop is answered at once), and the halved pool would not slow anything.
    const sleeping = () => sleep(wait, this.options.signal)
    await (error instanceof NetworkError ? this.holding(sleeping) : sleeping())
  }

  /** One HTTP exchange; throws `ApiError`s with `retryable` set for 5xx and network failures. */
  private async attempt<T>(spec: CallSpec<T>, tally: Tally, token: string | undefined): Promise<T> {
    const attempt = tally.attempt
    const url = callUrl(spec, {
      apiUrl: this.session.apiUrl,
      filesUrl: this.session.filesUrl,
      accountsUrl: this.options.accountsUrl
    })
    const path = displayPath(spec, url, this.session.apiUrl)
    const rateWait = this.limiter.reserve()
    if (rateWait > 0) {
      const wait = Math.min(rateWait, this.options.maxRateLimitWaitMs)
      this.stats.rateLimitWaits++
      this.emit({type: 'rate-limit-wait', method: spec.method, path, attempt, waitMs: wait})
      await sleep(wait, this.options.signal)
    }
    const release = await this.gate.acquire()
    const round = this.window.epoch
    const timeoutMs = spec.timeoutMs ?? this.options.timeoutMs
    const controller = new AbortController()
    const deadline = startDeadline(timeoutMs, () => controller.abort())
    // The run's stop cuts the exchange off as the time-out does, but is no drop: its reason is thrown as it is.
    const stop = () => controller.abort(this.options.signal!.reason)
    if (this.options.signal?.aborted === false) this.options.signal.addEventListener('abort', stop, {once: true})
    else if (this.options.signal) stop()
    try {
      const {body, headers} = await requestBody(spec)
      tally.bodyBytes = bodyBytes(body, headers)
      this.bodyLimits.check(spec, path, tally.bodyBytes)
      if (spec.auth !== false && token) headers.authorization = `Bearer ${token}`
      this.stats.requests++
      this.stats.byEndpoint[spec.endpoint] = (this.stats.byEndpoint[spec.endpoint] ?? 0) + 1
      this.emit({type: 'request', method: spec.method, path, attempt})
      const {agent, request} = await (this.connection ??= openConnection(this.options.concurrency))
      const response = await request(url, {
        method: spec.method,
        headers,
        body,
        signal: controller.signal,
        dispatcher: agent
      })
      if (this.window.answer())
        this.emit({type: 'concurrency', method: spec.method, path, attempt, limit: this.window.limit})
      const answerHeaders = flatHeaders(response.headers)
      this.limiter.observe(answerHeaders)
      if (response.statusCode >= 200 && response.statusCode < 300) {
        const answer = {method: spec.method, path, status: response.statusCode, headers: answerHeaders}
        const result = spec.read
          ? await spec.read(response.body, answerHeaders)
          : ((await readApiJson(response.body, answer, this.secrets())) as T)
        this.emit({type: 'response', method: spec.method, path, status: response.statusCode, attempt})
        return result
      }
      if (spec.redirect && redirectStatuses.has(response.statusCode) && answerHeaders.location) {
        await response.body.dump()
        this.emit({type: 'response', method: spec.method, path, status: response.statusCode, attempt})
        return spec.redirect(answerHeaders.location)
      }
      throw await this.answerFailure(spec, {path, attempt, bodyBytes: tally.bodyBytes}, response, answerHeaders)
    } catch (error) {
      if (this.options.signal?.aborted) throw this.options.signal.reason
      if (error instanceof ApiError) throw error
      throw this.networkFailure(error, {spec, path, attempt, round}, controller.signal.aborted ? timeoutMs : undefined)
    } finally {
      deadline.cancel()
      this.options.signal?.removeEventListener('abort', stop)
      release()
    }
  }

  /** The error of an answer that is neither a success nor a followed redirect, reported; a 413 teaches the body limit. */
  private async answerFailure(
    spec: CallSpec<unknown>,
    sent: {path: string; attempt: number; bodyBytes: number | undefined},
    response: {statusCode: number; body: {text(): Promise<string>}},
    headers: Record<string, string | undefined>
  ): Promise<ApiError> {
    const {path, attempt, bodyBytes: bytes} = sent
    const status = response.statusCode
    const text = await response.body.text().catch(() => '')
    if (status === 413) this.bodyLimits.learn(spec, bytes)
    const tail = status === 413 ? refusedTail(bytes, spec.json !== undefined) : ''
    const failure = answerError({method: spec.method, path, status, text, headers}, this.secrets(), tail)
    this.emit({type: 'response', method: spec.method, path, status, attempt, errorCode: failure.errorCode})
    return failure
  }

  /** The `NetworkError` of an exchange that got no answer (`timedOutMs`: it was aborted after that long), reported and counted as a drop. */
  private networkFailure(
    error: unknown,
    exchange: {spec: CallSpec<unknown>; path: string; attempt: number; round: number},
    timedOutMs: number | undefined
  ): NetworkError {
    const {spec, path, attempt} = exchange
    const failure = dropError(error, {method: spec.method, path}, timedOutMs, this.secrets())
    this.emit({
      type: 'response',
      method: spec.method,
      path,
      attempt,
      errorCode: failure.cause?.code ?? failure.errorCode
    })
    if (this.window.dropped(exchange.round))
      this.emit({type: 'concurrency', method: spec.method, path, attempt, limit: this.window.limit})
    return failure
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
    if (this.connection) await (await this.connection).agent.close()
  }
}

/**
 * Client configuration: options, their defaults, and the environment
 * variables `KbClient.fromEnv` reads.
 */
import {setMaxListeners} from 'node:events'
import {foreignDownloadValues, type ForeignDownloads} from './download-access.js'
import type {ClientEvent} from './events.js'

export const DEFAULT_API_URL = 'https://api.pyrus.com/v4'
export const DEFAULT_FILES_URL = 'https://files.pyrus.com'
export const DEFAULT_ACCOUNTS_URL = 'https://accounts.pyrus.com/api/v4'

/**
 * Environment variables as `process.env` holds them (typed without Node's
 * types, so a TypeScript user of the package needs no @types/node).
 */
export type Environment = Readonly<Record<string, string | undefined>>

/** Options of `KbClient`. */
export interface ClientOptions {
  /** Default `https://api.pyrus.com/v4` (a trailing slash is stripped). */
  apiUrl?: string
  /** Default: the `/auth` answer's `files_url`, else `https://files.pyrus.com` with the default API, else uploads go to `{apiUrl}/files/upload`. */
  filesUrl?: string
  /** Default `https://accounts.pyrus.com/api/v4` with the default API, else `{apiUrl}` (an on-premise install serves `{apiUrl}/auth`). */
  accountsUrl?: string
  /**
   * Origins, besides the platform's and those of `apiUrl`, `filesUrl` and
   * `accountsUrl`, that a login answer's `api_url` and `files_url` may name
   * (`https://kb.example.com`); an answer naming any other origin is refused,
   * so the credentials never follow it.
   */
  trustedOrigins?: readonly string[]
  /** A ready access token. */
  token?: string
  /** Login and security key: the client logs in with `POST /auth` and again once when the token expires. */
  login?: string
  securityKey?: string
  personId?: number
  /** Requests in flight at most, shared by all calls (default 8). */
  concurrency?: number
  /** Time-out of one attempt (default 30 s). */
  timeoutMs?: number
  /** Time-out of one upload or download attempt (default 10 min). */
  uploadTimeoutMs?: number
  /** Attempts per call in all, after failures (default 5). */
  retries?: number
  /**
   * Retries of an article or topic write the platform answered with a 5xx
   * (default 1): it answers 500 to a body it cannot read, and that does not
   * change by sending it again. Dropped connections still get `retries`.
   */
  writeServerErrorRetries?: number
  /** Longest backoff after a failure (default 30 s). */
  maxRetryWaitMs?: number
  /**
   * Longest wait the rate limit may impose: a 429's `Retry-After` or
   * `X-RateLimit-Reset`, or holding requests at the end of the budget
   * (default 11 min: the platform's interval is 10). A longer demand fails the call.
   */
  maxRateLimitWaitMs?: number
  /** First backoff ceiling; doubled per attempt, full jitter (default 500 ms). */
  retryBaseMs?: number
  /**
   * A download from outside the API and files services (an attachment URL or
   * a redirect elsewhere): `refuse` (default) does not fetch it, `anonymous`
   * fetches it without the token. The token itself never goes there.
   */
  foreignDownloads?: ForeignDownloads
  /** Progress and `--verbose` logging; events never hold secrets. */
  onEvent?: (event: ClientEvent) => void
  /**
   * Stops the client: once aborted, requests in flight are cut off, waits
   * (backoff, rate limit) end, no request is sent again, and each call
   * rejects with the signal's `reason`.
   */
  signal?: AbortSignal
}

/** Options with every default applied. */
export interface ResolvedOptions {
  apiUrl: string
  filesUrl?: string
  /** Whether `filesUrl` was given (then the `/auth` answer does not replace it). */
  filesUrlConfigured: boolean
  accountsUrl: string
  /** `trustedOrigins` as given (none: `[]`). */
  trustedOrigins: readonly string[]
  token?: string
  login?: string
  securityKey?: string
  personId?: number
  concurrency: number
  timeoutMs: number
  uploadTimeoutMs: number
  retries: number
  writeServerErrorRetries: number
  maxRetryWaitMs: number
  maxRateLimitWaitMs: number
  retryBaseMs: number
  foreignDownloads: ForeignDownloads
  onEvent?: (event: ClientEvent) => void
  signal?: AbortSignal
}

/** Strips trailing slashes from a URL. */
export function stripSlash(url: string): string {
  return url.replace(/\/+$/, '')
}

function positive(value: number | undefined, fallback: number, name: string, min = 0): number {
  if (value === undefined) return fallback
  if (!Number.isFinite(value) || value < min) throw new TypeError(`kbsync client: ${name} must be a number >= ${min}`)
  return value
}

/** Applies defaults and checks the options; throws a `TypeError` naming a bad option (never its value). */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  const apiUrl = stripSlash(options.apiUrl || DEFAULT_API_URL)
  for (const [name, url] of [
    ['apiUrl', apiUrl],
    ['filesUrl', options.filesUrl],
    ['accountsUrl', options.accountsUrl]
  ] as const) {
    if (url && !/^https?:\/\/[^\s/]+/.test(url)) throw new TypeError(`kbsync client: ${name} must be an http(s) URL`)
  }
  const isDefaultApi = apiUrl === DEFAULT_API_URL
  const filesUrl = options.filesUrl ? stripSlash(options.filesUrl) : isDefaultApi ? DEFAULT_FILES_URL : undefined
  const accountsUrl = stripSlash(options.accountsUrl || (isDefaultApi ? DEFAULT_ACCOUNTS_URL : apiUrl))
  if (options.foreignDownloads !== undefined && !foreignDownloadValues.includes(options.foreignDownloads)) {
    throw new TypeError(
      `kbsync client: foreignDownloads must be ${foreignDownloadValues.map((v) => `"${v}"`).join(' or ')}`
    )
  }
  if (!options.token && !(options.login && options.securityKey)) {
    throw new TypeError(
      'kbsync client: no credentials: set a token (KBSYNC_TOKEN) or a login and security key (KBSYNC_LOGIN, KBSYNC_SECURITY_KEY)'
    )
  }
  return {
    apiUrl,
    filesUrl,
    filesUrlConfigured: Boolean(options.filesUrl),
    accountsUrl,
    trustedOrigins: [...(options.trustedOrigins ?? [])],
    token: options.token || undefined,
    login: options.login || undefined,
    securityKey: options.securityKey || undefined,
    personId: options.personId,
    concurrency: Math.floor(positive(options.concurrency, 8, 'concurrency', 1)),
    timeoutMs: positive(options.timeoutMs, 30_000, 'timeoutMs', 1),
    uploadTimeoutMs: positive(options.uploadTimeoutMs, 600_000, 'uploadTimeoutMs', 1),
    retries: Math.floor(positive(options.retries, 5, 'retries', 1)),
    writeServerErrorRetries: Math.floor(positive(options.writeServerErrorRetries, 1, 'writeServerErrorRetries')),
    maxRetryWaitMs: positive(options.maxRetryWaitMs, 30_000, 'maxRetryWaitMs'),
    maxRateLimitWaitMs: positive(options.maxRateLimitWaitMs, 660_000, 'maxRateLimitWaitMs'),
    retryBaseMs: positive(options.retryBaseMs, 500, 'retryBaseMs'),
    // Refusing is the safe default: the platform's own attachments are always on its API or files host.
    foreignDownloads: options.foreignDownloads ?? foreignDownloadValues[0]!,
    onEvent: options.onEvent,
    ...(options.signal ? {signal: listenedByEveryCall(options.signal)} : {})
  }
}

/**
 * `signal`, without Node's warning past 10 listeners: every call in flight
 * or waiting out a retry listens for the run's stop and removes its listener
 * when done, so more than 10 at once is the normal case of a run meeting
 * faults, not a leak (the warning reached the user's terminal).
 */
function listenedByEveryCall(signal: AbortSignal): AbortSignal {
  setMaxListeners(0, signal)
  return signal
}

/** Client options from `KBSYNC_API_URL`, `KBSYNC_FILES_URL`, `KBSYNC_ACCOUNTS_URL`, `KBSYNC_TRUSTED_ORIGINS` (comma-separated), `KBSYNC_TOKEN`, `KBSYNC_LOGIN`, `KBSYNC_SECURITY_KEY`, `KBSYNC_PERSON_ID`, `KBSYNC_FOREIGN_DOWNLOADS`. */
export function optionsFromEnv(env: Environment): ClientOptions {
  const personId = env.KBSYNC_PERSON_ID ? Number(env.KBSYNC_PERSON_ID) : undefined
  const pick = (name: string): string | undefined =>
    env[name] && env[name]!.trim() !== '' ? env[name]!.trim() : undefined
  return {
    apiUrl: pick('KBSYNC_API_URL'),
    filesUrl: pick('KBSYNC_FILES_URL'),
    accountsUrl: pick('KBSYNC_ACCOUNTS_URL'),
    trustedOrigins: pick('KBSYNC_TRUSTED_ORIGINS')
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    token: pick('KBSYNC_TOKEN'),
    login: pick('KBSYNC_LOGIN'),
    securityKey: pick('KBSYNC_SECURITY_KEY'),
    personId: Number.isInteger(personId) ? personId : undefined,
    foreignDownloads: pick('KBSYNC_FOREIGN_DOWNLOADS') as ForeignDownloads | undefined
  }
}

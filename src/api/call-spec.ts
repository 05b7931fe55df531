/**
 * How everything above the transport describes a request: one plain
 * `CallSpec` per logical call (endpoint, body, what a failure means, how the
 * answer is read). `transport.ts` sends them.
 */
import type {Dispatcher} from 'undici'

/** A response body as undici hands it over. */
export type ResponseBody = Dispatcher.ResponseData['body']

/** A request body that can be produced again for every attempt (streams are re-opened). */
export interface BodySource {
  body: string | Buffer | AsyncIterable<Uint8Array>
  headers: Record<string, string>
}

/** One logical call. */
export interface CallSpec<T> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** `api`: path under the API URL; `upload`: the upload endpoint; `auth`: `{accountsUrl}/auth`; `url`: `path` is absolute. */
  base: 'api' | 'upload' | 'auth' | 'url'
  path: string
  /** Key of the per-endpoint counter, e.g. `GET /knowledgebase/{id}`. */
  endpoint: string
  query?: Record<string, string>
  json?: unknown
  /** Produces the body afresh for each attempt (uploads re-open the file). */
  body?: () => Promise<BodySource> | BodySource
  /** Send the bearer token (default true). */
  auth?: boolean
  timeoutMs?: number
  /**
   * After a 5xx or a dropped connection: `retry` sends again; `verify` first
   * calls `verify`, which returns the result if the write was applied after all.
   */
  onFailure: 'retry' | 'verify'
  verify?: () => Promise<T | undefined>
  /**
   * Retries after an error answer (5xx) at most, when fewer than `retries`
   * allow: a write the platform answers 500 is refused for what it holds,
   * and sending it five times only delays the report (writes and `/auth`: 1).
   */
  serverErrorRetries?: number
  /**
   * Answers a redirect (a 3xx with a `Location`) instead of failing on it:
   * undici follows none, and a download decides hop by hop where the token
   * may go, so it follows them itself.
   */
  redirect?: (location: string) => T
  /** Reads a 2xx answer (default: JSON). Throwing a retryable `ApiError` counts as a failed attempt. */
  read?: (body: ResponseBody, headers: Record<string, string | undefined>) => Promise<T>
}

/** What the attempts of one call have met so far. */
export interface CallTally {
  attempt: number
  /** Retryable failures (5xx, network), counted against `retries`. */
  failures: number
  serverErrors: number
  rateLimited: number
  /** Whether the call logged in again already (once per call). */
  reauthed: boolean
  /** The size of the body the last attempt sent, when known. */
  bodyBytes?: number
  /** Attempts whose connection broke while a large body was sent (see `body-limit.ts`). */
  brokenWrites: number
}

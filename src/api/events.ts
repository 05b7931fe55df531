/**
 * What the client reports while it works, for progress and `--verbose`
 * logs. Events hold method, path, status and timings: never a header, a body,
 * the token or the security key.
 */

/** One observable step of a request. */
export interface ClientEvent {
  /** `concurrency`: the pool's size changed (halved after a dropped connection, or grown back by one). */
  type: 'request' | 'response' | 'retry' | 'rate-limit-wait' | 'reauth' | 'concurrency'
  method: string
  /** Path relative to the API (or the URL path of a download), with its query. */
  path: string
  status?: number
  /** 1 for the first attempt of a call. */
  attempt?: number
  /** How long the client waits before the next step. */
  waitMs?: number
  errorCode?: string
  /** On `concurrency`: requests the pool lets out at once from now on. */
  limit?: number
}

/** Counters of a client's requests since it was created. */
export interface ClientStats {
  /** HTTP requests sent (every attempt counts). */
  requests: number
  /** Attempts repeated after a failure, a 429 or a re-login. */
  retries: number
  /** Waits imposed by the rate limit (a 429, or slowing down before the limit). */
  rateLimitWaits: number
  /** Requests per endpoint, keyed like `GET /knowledgebase/{id}`. */
  byEndpoint: Record<string, number>
  /** Times dropped connections halved the pool, and the smallest size it had (adaptive concurrency). */
  concurrencyDecreases?: number
  lowestConcurrency?: number
}

/** One `--verbose` log line for an event, e.g. `api: retry PUT /knowledgebase/A1 (attempt 2, 500 server_error) in 120 ms`. */
export function formatClientEvent(event: ClientEvent): string {
  const details: string[] = []
  if (event.attempt !== undefined && event.attempt > 1) details.push(`attempt ${event.attempt}`)
  if (event.status !== undefined || event.errorCode !== undefined) {
    details.push([event.status, event.errorCode].filter((x) => x !== undefined).join(' '))
  }
  if (event.limit !== undefined) details.push(`limit ${event.limit}`)
  const wait = event.waitMs !== undefined ? ` in ${Math.round(event.waitMs)} ms` : ''
  return `api: ${event.type} ${event.method} ${event.path}${details.length ? ` (${details.join(', ')})` : ''}${wait}`
}

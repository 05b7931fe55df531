/**
 * Which failures are retried, and how long to wait: exponential backoff with
 * full jitter, or what the server demands (`Retry-After`, else
 * `X-RateLimit-Reset`).
 */

/** Statuses worth another attempt: 5xx except 501 (not implemented will not change). */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 && status !== 501
}

/**
 * The wait before attempt `attempt + 1` (attempt counts from 1): a uniform
 * random time between 0 and `min(capMs, baseMs * 2^(attempt-1))` ("full jitter",
 * which spreads out clients that failed together).
 */
export function backoffMs(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1))
  return Math.floor(random() * ceiling)
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000)
  const date = Date.parse(text)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}

/** `X-RateLimit-Reset` (seconds until the next interval) as milliseconds. */
function parseResetSeconds(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined
  return Math.ceil(Number(value) * 1000)
}

/** The wait a 429 answer asks for: `Retry-After`, else `X-RateLimit-Reset`, else undefined (use backoff). */
export function serverWaitMs(
  headers: Record<string, string | undefined>,
  now: number = Date.now()
): number | undefined {
  return parseRetryAfter(headers['retry-after'], now) ?? parseResetSeconds(headers['x-ratelimit-reset'])
}

/** Resolves after `ms` milliseconds; rejects with `signal`'s reason as soon as it is aborted (a stopped run waits for nothing). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason)
  if (ms <= 0) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop)
      resolve()
    }, ms)
    signal?.addEventListener('abort', stop, {once: true})
  })
}

/**
 * What a non-2xx answer of the platform means, as a typed error: its
 * `error_code` and message, whether it may be retried, how long a 429 asks
 * to wait; secrets masked in the message.
 */
import {ApiError, AuthError} from './errors.js'
import {redact} from './redact.js'
import {isRetryableStatus, serverWaitMs} from './retry-policy.js'

/** One answer that failed. */
export interface FailedAnswer {
  method: string
  /** The path as shown in messages (no secrets). */
  path: string
  status: number
  /** The answer's body as text. */
  text: string
  headers: Record<string, string | undefined>
}

/** The typed error of a non-2xx answer: an `AuthError` for a 401, else an `ApiError`. */
export function answerError(answer: FailedAnswer, secrets: readonly string[]): ApiError {
  const {method, path, status, text, headers} = answer
  let errorCode: string | undefined
  let detail: string | undefined
  try {
    const parsed = JSON.parse(text) as {error_code?: unknown; error?: unknown}
    if (typeof parsed.error_code === 'string') errorCode = parsed.error_code
    if (typeof parsed.error === 'string') detail = parsed.error
  } catch {
    detail = text.slice(0, 200) || undefined
  }
  const message = redact(
    `${method} ${path} failed: ${status}${errorCode ? ` ${errorCode}` : ''}${detail ? `: ${detail}` : ''}`,
    secrets
  )
  const init = {
    status,
    errorCode,
    method,
    path,
    retryable: status === 429 || isRetryableStatus(status),
    retryAfterMs: status === 429 ? serverWaitMs(headers) : undefined
  }
  return status === 401 ? new AuthError(message, init) : new ApiError(message, init)
}

/** Header names in lower case, one value each (the first of a repeated header). */
export function flatHeaders(
  headers: Record<string, string | string[] | undefined>
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {}
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = Array.isArray(value) ? value[0] : value
  return out
}

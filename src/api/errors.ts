/**
 * Typed errors of the API client. They carry what a user or the engine needs
 * (status, `error_code`, method, path, whether a retry could help) and never a
 * secret: messages go through the client's redactor, and the raw error of the
 * HTTP stack (whose `cause` may hold request options with the
 * `Authorization` header) is replaced by a plain, redacted summary.
 */
import {redact} from './redact.js'

/** What an `ApiError` is built from. */
export interface ApiErrorInit {
  status?: number
  errorCode?: string
  method: string
  path: string
  retryable?: boolean
  retryAfterMs?: number
  /** A summary of the underlying error (already redacted). */
  cause?: SafeCause
}

/** The only part of an underlying error that an `ApiError` keeps. */
export interface SafeCause {
  name: string
  code?: string
  message: string
}

/** A failed request: an error answer of the API, or a request that could not complete. */
export class ApiError extends Error {
  status?: number
  errorCode?: string
  method: string
  path: string
  retryable: boolean
  /** On a 429: the wait the server asked for (`Retry-After`, else `X-RateLimit-Reset`). */
  retryAfterMs?: number
  declare cause?: SafeCause

  constructor(message: string, init: ApiErrorInit) {
    super(message)
    this.status = init.status
    this.errorCode = init.errorCode
    this.method = init.method
    this.path = init.path
    this.retryable = init.retryable ?? false
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs
    if (init.cause)
      Object.defineProperty(this, 'cause', {value: init.cause, enumerable: false, writable: true, configurable: true})
  }

  /** Plain data for logs and `--json` output; the same safe fields as the message. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      status: this.status,
      errorCode: this.errorCode,
      method: this.method,
      path: this.path,
      retryable: this.retryable,
      retryAfterMs: this.retryAfterMs,
      cause: this.cause
    }
  }
}

/** The token is missing, expired, revoked or rejected, or logging in failed. */
export class AuthError extends ApiError {}

/** The connection dropped, was refused, or the request timed out. */
export class NetworkError extends ApiError {}

// On the prototype, so the stack's first line names the class too (a class field is set after the stack is taken).
for (const type of [ApiError, AuthError, NetworkError])
  Object.defineProperty(type.prototype, 'name', {value: type.name, writable: true, configurable: true})

/** A redacted summary of an arbitrary thrown value (drops its `cause` chain and any attached options). */
export function safeCause(error: unknown, secrets: Iterable<string>): SafeCause {
  const e = error as {name?: unknown; code?: unknown; message?: unknown}
  const list = [...secrets]
  return {
    name: typeof e?.name === 'string' ? e.name : 'Error',
    ...(typeof e?.code === 'string' ? {code: e.code} : {}),
    message: redact(typeof e?.message === 'string' ? e.message : String(error), list)
  }
}

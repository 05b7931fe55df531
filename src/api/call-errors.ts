/**
 * The errors a call ends with when retrying cannot help: a token the
 * platform refused (again), a rate limit that asks for a longer wait than
 * allowed. Each message says what to do.
 */
import {ApiError, AuthError, NetworkError} from './errors.js'

/** The call as the messages name it. */
interface Called {
  method: string
}

/** An expired or revoked token that cannot be renewed (no login configured), or was refused again right after logging in. */
export function tokenRejected(spec: Called, error: ApiError, canLogin: boolean): AuthError {
  const init = {status: 401, errorCode: error.errorCode, method: spec.method, path: error.path}
  if (!canLogin) {
    return new AuthError(
      `The access token was rejected (${error.errorCode}) on ${spec.method} ${error.path}: refresh KBSYNC_TOKEN, or set KBSYNC_LOGIN and KBSYNC_SECURITY_KEY so kbsync can log in by itself`,
      init
    )
  }
  return new AuthError(
    `The access token was rejected again (${error.errorCode}) right after logging in on ${spec.method} ${error.path}`,
    init
  )
}

/** A 429 whose wait is longer than `maxRateLimitWaitMs` allows. */
export function rateLimitTooLong(spec: Called, error: ApiError, waitMs: number, maxWaitMs: number): ApiError {
  return new ApiError(
    `Rate limited on ${spec.method} ${error.path}: the server asks to wait ${Math.ceil(waitMs / 1000)} s, longer than the ${Math.round(maxWaitMs / 1000)} s allowed (maxRateLimitWaitMs); try again later`,
    {
      status: 429,
      errorCode: error.errorCode ?? 'too_many_requests',
      method: spec.method,
      path: error.path,
      retryable: true
    }
  )
}

/** A call made after the client was closed. */
export function clientClosed(spec: Called & {path: string}): NetworkError {
  return new NetworkError(`${spec.method} ${spec.path}: the client is closed`, {
    method: spec.method,
    path: spec.path,
    retryable: false,
    errorCode: 'client_closed'
  })
}

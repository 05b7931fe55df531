/**
 * The error of an exchange that got no answer: the connection was refused
 * or dropped, or the time-out cut it off. Its message and cause are
 * redacted: the HTTP stack's own error may carry the request's headers.
 */
import {NetworkError, safeCause} from './errors.js'
import {redact} from './redact.js'

/** The `NetworkError` of `call` that failed with `error` (`timedOutMs`: aborted by the time-out after that long). */
export function dropError(
  error: unknown,
  call: {method: string; path: string},
  timedOutMs: number | undefined,
  secrets: readonly string[]
): NetworkError {
  const cause = safeCause(error, secrets)
  const timedOut = timedOutMs !== undefined
  const reason = timedOut
    ? `timed out after ${Math.round(timedOutMs / 1000)} s`
    : `${cause.code ?? cause.name}: ${cause.message}`
  return new NetworkError(redact(`${call.method} ${call.path} failed: ${reason}`, secrets), {
    method: call.method,
    path: call.path,
    retryable: true,
    errorCode: timedOut ? 'timeout' : 'network_error',
    cause
  })
}

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

/** The typed error of a non-2xx answer (`tail`: what the caller adds to its message): an `AuthError` for a 401, else an `ApiError`. */
export function answerError(answer: FailedAnswer, secrets: readonly string[], tail = ''): ApiError {
  const {method, path, status, text, headers} = answer
  let errorCode: string | undefined
  let detail: string | undefined
  try {
    const parsed = JSON.parse(text) as {error_code?: unknown; error?: unknown}
    if (typeof parsed.error_code === 'string') errorCode = parsed.error_code
    if (typeof parsed.error === 'string') detail = parsed.error
  } catch {
    // Not the platform's answer (its errors are JSON): a proxy's, gateway's or login page's.
    if (text.trim() !== '') {
      errorCode = notApiAnswer
      detail = notApiDetail(text, headers['content-type'])
    }
  }
  const message = redact(
    `${method} ${path} failed: ${status}${errorCode && errorCode !== notApiAnswer ? ` ${errorCode}` : ''}${detail ? `: ${tail ? detail.replace(/\.$/, '') : detail}` : ''}${tail}`,
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

/** The `errorCode` of an answer that is not the API's JSON: a page of something between kbsync and the platform. */
export const notApiAnswer = 'not_api_answer'

/** What an error answer that is not JSON was, for people: an HTML page by its title, else its first words. */
function notApiDetail(text: string, contentType: string | undefined): string {
  const head = text.slice(0, 4096)
  const html = /^text\/html\b/i.test(contentType ?? '') || /<(?:!doctype|html|head|body)\b/i.test(head)
  const title = html ? /<title[^>]{0,200}>([^<]{0,200})/i.exec(head)?.[1]?.replace(/\s+/g, ' ').trim() : undefined
  const sample = head.replace(/\s+/g, ' ').trim().slice(0, 80)
  const what = html ? (title ? `an HTML page titled "${title}"` : `an HTML page ("${sample}")`) : `"${sample}"`
  return `${what}, not the API's JSON: a proxy or gateway answered in the platform's place`
}

/** Header names in lower case, one value each (the first of a repeated header). */
export function flatHeaders(
  headers: Record<string, string | string[] | undefined>
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {}
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = Array.isArray(value) ? value[0] : value
  return out
}

/** Media types of the API's answers. */
const jsonType = /^application\/([\w.+-]+\+)?json$/

/** A 2xx answer whose body is to be read as the API's JSON. */
export interface JsonAnswer {
  method: string
  /** The path as shown in messages (no secrets). */
  path: string
  status?: number
  headers: Record<string, string | undefined>
}

/**
 * Reads a 2xx answer of the API as its JSON. A 200 that is not the API's
 * JSON (a proxy's or captive portal's HTML page, a body cut short) is no
 * answer of the platform: it is a transport fault, retried like a dropped
 * connection (a write sent again is checked by its caller as after a drop),
 * never taken for a success. A missing `Content-Type` is accepted when the
 * body parses.
 */
export async function readApiJson(
  body: {text(): Promise<string>},
  answer: JsonAnswer,
  secrets: readonly string[]
): Promise<unknown> {
  const text = await body.text()
  const type = answer.headers['content-type']?.split(';')[0]?.trim().toLowerCase()
  let why: string | undefined
  if (type && !jsonType.test(type)) why = `${type}, not the API's JSON`
  else {
    try {
      return JSON.parse(text) as unknown
    } catch {
      why = text.trim() === '' ? "an empty body, not the API's JSON" : 'JSON cut short or malformed'
    }
  }
  const sample = text.replace(/\s+/g, ' ').trim().slice(0, 80)
  throw new ApiError(
    redact(
      `${answer.method} ${answer.path} answered${answer.status ? ` ${answer.status}` : ''} with ${why}${sample ? ` ("${sample}")` : ''}: is a proxy or gateway in the way?`,
      secrets
    ),
    {method: answer.method, path: answer.path, errorCode: notApiAnswer, retryable: true}
  )
}

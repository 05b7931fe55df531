/**
 * Who a request of the local server is: the login (`POST /auth`, answered
 * as the platform does) and the bearer token of every other request.
 */
import type {IncomingMessage} from 'node:http'
import type {AuthResult} from '../api/types.js'
import {readJson} from './body.js'
import {KbServerError} from './errors.js'
import {nullsAsAbsent} from './fields.js'
import type {Pipeline} from './http.js'

/** A login is a few short strings. */
const authBodyBytes = 65536

/** Where `POST /auth` is served: under the API (`{api_url}/auth`, on-premise) and at the accounts host's path. */
export const authPaths = ['/v4/auth', '/api/v4/auth']

/** Answers `POST /auth`: a new token for the configured login, the platform's 401 or 500 otherwise. */
export async function authenticate(
  pipeline: Pipeline,
  message: IncomingMessage,
  answer: (status: number, body: unknown) => void
): Promise<void> {
  let body: {login?: unknown; security_key?: unknown; person_id?: unknown}
  try {
    body = nullsAsAbsent(await readJson(message, authBodyBytes))
  } catch (error) {
    const known = error instanceof KbServerError && error.status !== 400
    answer(
      known ? error.status : 400,
      known
        ? {error_code: error.code, error: error.message}
        : {error_code: 'invalid_request', error: 'The body must be a JSON object.'}
    )
    return
  }
  const accepted = pipeline.credentials
  if (!accepted || body.login !== accepted.login || body.security_key !== accepted.securityKey) {
    const why = accepted
      ? 'Wrong login or security key.'
      : 'This server accepts no logins: it listens beyond loopback and was given no login and security key of its own.'
    answer(401, {error_code: 'invalid_credentials', error: why})
    return
  }
  const persons = pipeline.loginPersonIds
  if (body.person_id === undefined && persons.length > 1) {
    // The platform's answer to a login of several organisations without person_id: no hint of what is missing.
    answer(500, {error_code: 'server_error', error: 'Internal server error.'})
    return
  }
  if (body.person_id !== undefined && persons.length > 0 && !persons.includes(Number(body.person_id))) {
    answer(401, {error_code: 'invalid_credentials', error: 'Wrong login or security key.'})
    return
  }
  const result: AuthResult = {
    access_token: pipeline.issueToken(),
    api_url: pipeline.urls.apiUrl + '/',
    files_url: pipeline.urls.filesUrl + '/'
  }
  answer(200, result)
}

/** The token of an `Authorization: Bearer` header; `''` for another scheme, undefined without the header. */
export function bearer(message: IncomingMessage): string | undefined {
  const header = message.headers.authorization
  if (!header) return undefined
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  return match ? match[1] : ''
}

/** The platform's error code for a missing, revoked, expired or unknown token; undefined for a valid one. */
export function checkToken(pipeline: Pipeline, token: string | undefined): string | undefined {
  if (token === undefined || token === '') return 'token_not_specified'
  if (pipeline.tokens.revoked.has(token)) return 'revoked_token'
  if (pipeline.tokens.expired.has(token)) return 'expired_token'
  if (!pipeline.tokens.valid.has(token)) return 'invalid_token'
  return undefined
}

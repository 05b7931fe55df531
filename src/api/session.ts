/**
 * Credentials and addresses of a client: a ready token, or a login and
 * security key exchanged for one at `POST {accountsUrl}/auth` (the answer's
 * `api_url` and `files_url` then replace the configured ones, when their
 * origin is one the credentials may go to). Logging in is single-flight:
 * concurrent calls share one `/auth` request.
 */
// The origin rule's own module, not trust/index.js: the API layer needs this one rule, and the other rules may use the client.
import {credentialOrigins, mayReceiveCredentials, originOf} from '../trust/origins.js'
import {ApiError, AuthError} from './errors.js'
import type {ResolvedOptions} from './options.js'
import {stripSlash} from './options.js'
import {isRetryableStatus} from './retry-policy.js'
import type {CallSpec} from './call-spec.js'
import type {AuthResult} from './types.js'

/** The client's current token and addresses. */
export class Session {
  token: string | undefined
  apiUrl: string
  filesUrl: string | undefined
  private readonly used = new Set<string>()
  private pending: Promise<void> | undefined
  /** Where the token may go: the platform's hosts, the configured URLs' origins and `trustedOrigins`. */
  private readonly origins: ReadonlySet<string>

  constructor(
    private readonly options: ResolvedOptions,
    private readonly send: (spec: CallSpec<AuthResult>) => Promise<AuthResult>
  ) {
    this.token = options.token
    this.apiUrl = options.apiUrl
    this.filesUrl = options.filesUrl
    if (options.token) this.used.add(options.token)
    this.origins = credentialOrigins([options.apiUrl, options.filesUrl, options.accountsUrl], options.trustedOrigins)
  }

  /** Whether the client can log in by itself (login and security key configured). */
  get canLogin(): boolean {
    return Boolean(this.options.login && this.options.securityKey)
  }

  /** Secrets to keep out of every message: the security key and every token seen. */
  secrets(): string[] {
    return [...this.used, ...(this.options.securityKey ? [this.options.securityKey] : [])]
  }

  /** Logs in first when there is no token yet. */
  async ready(): Promise<void> {
    if (this.token) return
    await this.login()
  }

  /** Logs in again after `staleToken` was rejected, unless another call already did. */
  async renew(staleToken: string | undefined): Promise<void> {
    if (this.token !== staleToken && this.token) return
    this.token = undefined
    await this.login()
  }

  /** A 401 on a call with `token`, saying where the token came from (names of variables only). */
  refused(error: ApiError, token: string | undefined): AuthError {
    const origin =
      token !== undefined && token === this.options.token
        ? 'KBSYNC_TOKEN (or tokenFile)'
        : `logging in with ${loginNames(this.options.personId !== undefined)}`
    return new AuthError(`${error.message}: the access token from ${origin} was refused; check it`, {
      status: 401,
      errorCode: error.errorCode,
      method: error.method,
      path: error.path
    })
  }

  private login(): Promise<void> {
    this.pending ??= this.exchange().finally(() => {
      this.pending = undefined
    })
    return this.pending
  }

  private async exchange(): Promise<void> {
    if (!this.canLogin)
      throw new AuthError('No access token: set KBSYNC_TOKEN, or KBSYNC_LOGIN and KBSYNC_SECURITY_KEY', {
        method: 'POST',
        path: '/auth'
      })
    const json: Record<string, unknown> = {login: this.options.login, security_key: this.options.securityKey}
    if (this.options.personId !== undefined) json.person_id = this.options.personId
    let answer: AuthResult
    try {
      // One retry of a 5xx: the platform's 500 without person_id does not go away by asking again.
      answer = await this.send({
        method: 'POST',
        base: 'auth',
        path: '/auth',
        endpoint: 'POST /auth',
        json,
        auth: false,
        onFailure: 'retry',
        serverErrorRetries: 1
      })
    } catch (error) {
      throw explainLoginFailure(error, this.options.accountsUrl, this.options.personId !== undefined)
    }
    if (!answer || typeof answer.access_token !== 'string' || answer.access_token === '') {
      throw new AuthError(`Logging in at ${this.options.accountsUrl}/auth gave no access_token`, {
        method: 'POST',
        path: '/auth'
      })
    }
    this.used.add(answer.access_token)
    const apiUrl =
      typeof answer.api_url === 'string' && answer.api_url ? this.trusted(answer.api_url, 'api_url') : undefined
    const filesUrl =
      !this.options.filesUrlConfigured && typeof answer.files_url === 'string' && answer.files_url
        ? this.trusted(answer.files_url, 'files_url')
        : undefined
    this.token = answer.access_token
    if (apiUrl) this.apiUrl = apiUrl
    if (filesUrl) this.filesUrl = filesUrl
  }

  /**
   * An address of the login answer, when the token may go there; else an
   * `AuthError` (nothing is sent there): an accounts service, or whoever
   * answers in its place, must not send the token to another origin.
   */
  private trusted(url: string, field: 'api_url' | 'files_url'): string {
    if (mayReceiveCredentials(url, this.origins)) return stripSlash(url)
    const origin = originOf(url) ?? 'an address that is no http(s) URL'
    throw new AuthError(
      `Logging in at ${this.options.accountsUrl}/auth answered ${field} on ${origin}, an origin the token may not go to (not the platform's, not a configured URL's, not in trustedOrigins); nothing was sent there. If it is your installation's, set KBSYNC_API_URL / KBSYNC_FILES_URL to it or add ${origin} to KBSYNC_TRUSTED_ORIGINS`,
      {method: 'POST', path: '/auth', errorCode: 'untrusted_origin'}
    )
  }
}

/** The variables a login sends, by name (never their values). */
function loginNames(personId: boolean): string {
  return personId ? 'KBSYNC_LOGIN, KBSYNC_SECURITY_KEY and KBSYNC_PERSON_ID' : 'KBSYNC_LOGIN and KBSYNC_SECURITY_KEY'
}

/**
 * A failed `POST /auth` as the user needs it: a refusal names the variables
 * that were sent; a 5xx without `person_id` says to set `KBSYNC_PERSON_ID`
 * (the platform answers 500 when the login belongs to several
 * organisations and none was chosen). Other errors are returned unchanged.
 */
function explainLoginFailure(error: unknown, accountsUrl: string, sentPersonId: boolean): unknown {
  if (!(error instanceof ApiError) || error.status === undefined) return error
  const answer = `${error.status}${error.errorCode ? ` ${error.errorCode}` : ''}`
  const init = {status: error.status, errorCode: error.errorCode, method: 'POST', path: '/auth'}
  if (error.status === 400 || error.status === 401 || error.status === 403) {
    const personHint = sentPersonId ? '; a KBSYNC_PERSON_ID the login does not belong to is refused the same way' : ''
    return new AuthError(
      `Logging in at ${accountsUrl}/auth was refused (${answer}): ${loginNames(sentPersonId)} were refused. Check their values${personHint}.`,
      init
    )
  }
  if (!isRetryableStatus(error.status)) return error
  if (sentPersonId) {
    return new AuthError(
      `Logging in at ${accountsUrl}/auth failed (${answer}), again after a retry, with ${loginNames(true)} sent: the platform has a problem; try again later.`,
      init
    )
  }
  return new AuthError(
    `Logging in at ${accountsUrl}/auth failed (${answer}), again after a retry. The platform answers so when the login (KBSYNC_LOGIN) belongs to several organisations and no person_id is sent: ` +
      'set KBSYNC_PERSON_ID (or personId in kbsync.config.json) to your person id in the organisation whose knowledge base you sync.',
    init
  )
}

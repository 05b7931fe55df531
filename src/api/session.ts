/**
 * Credentials and addresses of a client: a ready token, or a login and
 * security key exchanged for one at `POST {accountsUrl}/auth` (the answer's
 * `api_url` and `files_url` then replace the configured ones). Logging in is
 * single-flight: concurrent calls share one `/auth` request.
 */
import {AuthError} from './errors.js'
import type {ResolvedOptions} from './options.js'
import {stripSlash} from './options.js'
import type {CallSpec} from './transport.js'
import type {AuthResult} from './types.js'

/** The client's current token and addresses. */
export class Session {
  token: string | undefined
  apiUrl: string
  filesUrl: string | undefined
  private readonly used = new Set<string>()
  private pending: Promise<void> | undefined

  constructor(
    private readonly options: ResolvedOptions,
    private readonly send: (spec: CallSpec<AuthResult>) => Promise<AuthResult>
  ) {
    this.token = options.token
    this.apiUrl = options.apiUrl
    this.filesUrl = options.filesUrl
    if (options.token) this.used.add(options.token)
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

  private login(): Promise<void> {
    this.pending ??= this.exchange().finally(() => {
      this.pending = undefined
    })
    return this.pending
  }

  private async exchange(): Promise<void> {
    if (!this.canLogin) throw new AuthError('No access token: set KBSYNC_TOKEN, or KBSYNC_LOGIN and KBSYNC_SECURITY_KEY', {method: 'POST', path: '/auth'})
    const json: Record<string, unknown> = {login: this.options.login, security_key: this.options.securityKey}
    if (this.options.personId !== undefined) json.person_id = this.options.personId
    let answer: AuthResult
    try {
      answer = await this.send({method: 'POST', base: 'auth', path: '/auth', endpoint: 'POST /auth', json, auth: false, onFailure: 'retry'})
    } catch (error) {
      const e = error as AuthError
      if (e.status === 400 || e.status === 401 || e.status === 403) {
        throw new AuthError(`Logging in at ${this.options.accountsUrl}/auth failed (${e.status}${e.errorCode ? ` ${e.errorCode}` : ''}): check KBSYNC_LOGIN and KBSYNC_SECURITY_KEY`, {
          status: e.status,
          errorCode: e.errorCode,
          method: 'POST',
          path: '/auth'
        })
      }
      throw error
    }
    if (!answer || typeof answer.access_token !== 'string' || answer.access_token === '') {
      throw new AuthError(`Logging in at ${this.options.accountsUrl}/auth gave no access_token`, {method: 'POST', path: '/auth'})
    }
    this.used.add(answer.access_token)
    this.token = answer.access_token
    if (typeof answer.api_url === 'string' && answer.api_url) this.apiUrl = stripSlash(answer.api_url)
    if (!this.options.filesUrlConfigured && typeof answer.files_url === 'string' && answer.files_url) this.filesUrl = stripSlash(answer.files_url)
  }
}

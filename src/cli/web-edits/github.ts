/**
 * The few GitHub REST calls of `pull --pull-request`: the repository's
 * default branch, the pull requests of a branch, opening one and updating
 * one. Through undici, as every request of kbsync: a time-out per attempt,
 * retries with backoff on failed connections, 5xx and rate limits (the wait
 * the server names, if it names one). Opening is not idempotent: before it
 * is tried again, the branch's pull requests are read, so a request whose
 * answer was lost never opens a second one. The token goes only in the
 * Authorization header; no message carries it.
 */
import type {Agent, request} from 'undici'
import {flatHeaders} from '../../api/answer-error.js'
import {backoffMs, isRetryableStatus, serverWaitMs, sleep} from '../../api/retry-policy.js'
import {redact} from '../../api/redact.js'
import {oneLine} from '../../trust/index.js'
import {kbsyncVersion} from '../../version.js'
import type {GitHubSettings} from './github-settings.js'

/** A pull request as kbsync uses it. */
export interface PullRequest {
  number: number
  url: string
  state: string
  headSha: string
}

/** The words and branches of a pull request to open. */
export interface NewPullRequest {
  title: string
  body: string
  head: string
  base: string
}

/** A call GitHub refused or never answered. */
export class GitHubError extends Error {
  override name = 'GitHubError'
  constructor(
    message: string,
    /** The answer's status; undefined when there was no answer. */
    readonly status: number | undefined,
    /** The wait the server asked for before another attempt (a rate limit). */
    readonly waitMs?: number
  ) {
    super(message)
  }

  /** Another attempt may fare better: no answer, a server error or a rate limit. */
  get retryable(): boolean {
    return this.status === undefined || this.waitMs !== undefined || isRetryableStatus(this.status)
  }
}

/** The most bytes read of one answer (a page of pull requests is far less). */
const maxAnswerBytes = 8 * 1024 * 1024

/** The text of an answer's body, read up to `maxAnswerBytes`. */
async function boundedText(body: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.length
    if (size > maxAnswerBytes) throw new GitHubError(`an answer larger than ${maxAnswerBytes} bytes`, undefined)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** How patient the client is. */
export interface GitHubClientOptions {
  timeoutMs?: number
  attempts?: number
  /** The longest wait for a rate limit before giving up. */
  maxWaitMs?: number
}

const hints: Record<number, string> = {
  401: 'the token was refused: check GITHUB_TOKEN',
  403: 'the token may not do this: a workflow needs permissions contents: write and pull-requests: write',
  404: 'no such repository for this token: check GITHUB_REPOSITORY and the token',
  422: 'GitHub refused the request as it is'
}

/** The answer's JSON, or nothing when it is not JSON (bounded: a pull request list is small). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** A pull request of an answer's JSON. */
function pullRequestOf(value: unknown): PullRequest {
  const record = (value ?? {}) as {number?: unknown; html_url?: unknown; state?: unknown; head?: {sha?: unknown}}
  if (typeof record.number !== 'number')
    throw new GitHubError('GitHub answered without a pull request number', undefined)
  return {
    number: record.number,
    url: typeof record.html_url === 'string' ? record.html_url : '',
    state: typeof record.state === 'string' ? record.state : '',
    headSha: typeof record.head?.sha === 'string' ? record.head.sha : ''
  }
}

/**
 * The wait a rate-limited answer asks for (429, or 403 with the limit spent
 * or a Retry-After): `Retry-After`, else until `X-RateLimit-Reset` (epoch
 * seconds on GitHub), else a minute; undefined for any other answer.
 */
export function rateLimitWait(
  status: number,
  headers: Record<string, string | undefined>,
  now: number = Date.now()
): number | undefined {
  const limited =
    status === 429 ||
    (status === 403 && (headers['x-ratelimit-remaining'] === '0' || headers['retry-after'] !== undefined))
  if (!limited) return undefined
  const reset = Number(headers['x-ratelimit-reset'])
  return (
    serverWaitMs({'retry-after': headers['retry-after']}, now) ??
    (headers['x-ratelimit-reset'] !== undefined && Number.isFinite(reset) ? Math.max(0, reset * 1000 - now) : 60_000)
  )
}

/** The REST client of one repository. */
export class GitHubClient {
  /** Loaded with the first call (`import()`): a pull without --pull-request never loads undici for GitHub. */
  private connection?: Promise<{agent: Agent; request: typeof request}>
  private readonly timeoutMs: number
  private readonly attempts: number
  private readonly maxWaitMs: number

  constructor(
    private readonly settings: GitHubSettings,
    options: GitHubClientOptions = {}
  ) {
    this.timeoutMs = options.timeoutMs ?? 30_000
    this.attempts = options.attempts ?? 4
    this.maxWaitMs = options.maxWaitMs ?? 60_000
  }

  private get base(): string {
    const {apiUrl, owner, repo} = this.settings
    return `${apiUrl}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`
  }

  /** The repository's default branch. */
  async defaultBranch(): Promise<string> {
    const answer = (await this.call('GET', '')) as {default_branch?: unknown} | undefined
    if (typeof answer?.default_branch !== 'string') throw new GitHubError('GitHub named no default branch', undefined)
    return answer.default_branch
  }

  /** The pull requests whose head is `branch` of this repository, `open` or `all`. */
  async pullsOf(branch: string, state: 'open' | 'all'): Promise<PullRequest[]> {
    const head = encodeURIComponent(`${this.settings.owner}:${branch}`)
    const answer = await this.call('GET', `/pulls?head=${head}&state=${state}&per_page=100`)
    return Array.isArray(answer) ? answer.map(pullRequestOf) : []
  }

  /** Opens a pull request (or finds the one a lost answer opened). */
  async open(pull: NewPullRequest): Promise<PullRequest> {
    const found = async () => (await this.pullsOf(pull.head, 'open'))[0]
    try {
      return pullRequestOf(await this.call('POST', '/pulls', pull, found))
    } catch (error) {
      // 422: one is open already (another run opened it meanwhile): that is the one.
      const open = error instanceof GitHubError && error.status === 422 ? await found() : undefined
      if (open === undefined) throw error
      return open
    }
  }

  /** Sets the title and description of pull request `number`. */
  async update(number: number, words: {title: string; body: string}): Promise<PullRequest> {
    return pullRequestOf(await this.call('PATCH', `/pulls/${number}`, words))
  }

  /** Closes the connections. */
  async close(): Promise<void> {
    if (this.connection) await (await this.connection).agent.close()
  }

  /**
   * One call with its retries; `recover` (for a call that is not idempotent)
   * is asked before each new attempt whether the last one took effect.
   */
  private async call(
    method: string,
    route: string,
    body?: unknown,
    recover?: () => Promise<unknown>
  ): Promise<unknown> {
    const shown = `${method} /repos/${this.settings.owner}/${this.settings.repo}${route.replace(/\?.*$/, '')}`
    for (let attempt = 1; ; attempt++) {
      if (attempt > 1 && recover) {
        const done = await recover().catch(() => undefined)
        if (done !== undefined) return done
      }
      const outcome = await this.attempt(method, route, body).catch((error: unknown) => ({error}))
      if (!('error' in outcome)) return outcome.json
      const failure = outcome.error
      if (!(failure instanceof GitHubError)) throw failure
      const wait = failure.waitMs ?? backoffMs(attempt, 500, 8_000)
      if (!failure.retryable || attempt >= this.attempts || wait > this.maxWaitMs) throw this.failed(shown, failure)
      await sleep(wait)
    }
  }

  /** The error of a call that will not be tried again: what GitHub said, and what to do. */
  private failed(shown: string, failure: GitHubError): GitHubError {
    const {status} = failure
    const hint = status !== undefined && hints[status] ? ` (${hints[status]})` : ''
    return new GitHubError(redact(`GitHub ${shown}: ${failure.message}${hint}`, [this.settings.token]), status)
  }

  /** One attempt: the JSON answer, or a thrown `GitHubError` (with `wait` when the server named one). */
  private async attempt(method: string, route: string, body?: unknown): Promise<{json: unknown}> {
    this.connection ??= import('undici').then((undici) => ({
      agent: new undici.Agent({keepAliveTimeout: 5_000, connections: 2}),
      request: undici.request
    }))
    const {agent, request} = await this.connection
    const noAnswer = (error: unknown): never => {
      const why =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer in ${this.timeoutMs} ms`
          : String((error as Error).message)
      throw error instanceof GitHubError ? error : new GitHubError(`no answer (${why})`, undefined)
    }
    const signal = AbortSignal.timeout(this.timeoutMs)
    const answer = await request(`${this.base}${route}`, {
      method: method as 'GET',
      dispatcher: agent,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${this.settings.token}`,
        'x-github-api-version': '2022-11-28',
        'user-agent': `kbsync/${kbsyncVersion}`,
        ...(body !== undefined ? {'content-type': 'application/json'} : {})
      },
      ...(body !== undefined ? {body: JSON.stringify(body)} : {}),
      signal
    }).catch(noAnswer)
    const json = parseJson(await boundedText(answer.body).catch(noAnswer))
    if (answer.statusCode < 300) return {json}
    const said = (json as {message?: unknown} | undefined)?.message
    const message = `${answer.statusCode}${typeof said === 'string' ? ` ${oneLine(said)}` : ''}`
    return Promise.reject(
      new GitHubError(message, answer.statusCode, rateLimitWait(answer.statusCode, flatHeaders(answer.headers)))
    )
  }
}

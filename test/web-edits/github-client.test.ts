/**
 * The GitHub REST client of `pull --pull-request` against the recording
 * local server: retries (server errors, rate limits), no second pull request
 * when an answer is lost, errors that say what to do and never the token;
 * and where the settings come from.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {GitHubClient, GitHubError, rateLimitWait} from '../../src/cli/web-edits/github.js'
import {gitHubSettings, repositoryOfRemote} from '../../src/cli/web-edits/github-settings.js'
import {startFakeGitHub, type FakeGitHub} from './github-server.js'

const token = 'ghs_clientTestToken0123456789abcdef'
let github: FakeGitHub
let client: GitHubClient

beforeAll(async () => {
  github = await startFakeGitHub({owner: 'acme', repo: 'docs', token, headSha: () => 'a'.repeat(40)})
  const settings = {apiUrl: github.url, owner: 'acme', repo: 'docs', token}
  client = new GitHubClient(settings, {timeoutMs: 2_000, attempts: 3})
})
afterAll(async () => {
  await client?.close()
  await github?.close()
})

describe('the GitHub client', () => {
  it('tries again after a server error and a rate limit, then answers', async () => {
    github.calls.length = 0
    github.failNext({status: 502}, {status: 429, headers: {'retry-after': '0'}})
    expect(await client.defaultBranch()).toBe('main')
    expect(github.calls).toHaveLength(3)
  })

  it('opens one pull request when the answer to the first attempt is lost', async () => {
    github.calls.length = 0
    github.failNext({lose: true})
    const pull = await client.open({title: 'T', body: 'B', head: 'kbsync/web-edits', base: 'main'})
    expect(pull.number).toBe(1)
    expect(github.pulls).toHaveLength(1)
    expect(github.writes()).toHaveLength(1)
    // Opening again finds the one open (GitHub answers 422).
    expect((await client.open({title: 'T', body: 'B', head: 'kbsync/web-edits', base: 'main'})).number).toBe(1)
    expect(github.pulls).toHaveLength(1)
  })

  it('lists and updates a branch pull request', async () => {
    const [open] = await client.pullsOf('kbsync/web-edits', 'open')
    expect(open).toMatchObject({number: 1, state: 'open', headSha: 'a'.repeat(40)})
    expect(await client.pullsOf('other', 'all')).toEqual([])
    await client.update(1, {title: 'T2', body: 'B2'})
    expect(github.pulls[0]).toMatchObject({title: 'T2', body: 'B2'})
  })

  it('says what to do on a refused token, without the token', async () => {
    const refused = new GitHubClient({apiUrl: github.url, owner: 'acme', repo: 'docs', token: `${token}-wrong`})
    const error = await refused.defaultBranch().catch((e: unknown) => e)
    await refused.close()
    expect(error).toBeInstanceOf(GitHubError)
    expect((error as Error).message).toMatch(/GET \/repos\/acme\/docs: 401 Bad credentials \(the token was refused/)
    expect((error as Error).message).not.toContain(token)
  })

  it('reads a rate limit from Retry-After or the reset time', () => {
    const now = 1_000_000_000_000
    expect(rateLimitWait(429, {'retry-after': '3'}, now)).toBe(3000)
    expect(rateLimitWait(403, {'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 5)}, now)).toBe(
      5000
    )
    expect(rateLimitWait(403, {}, now)).toBeUndefined()
    expect(rateLimitWait(500, {'retry-after': '1'}, now)).toBeUndefined()
  })
})

describe('the settings', () => {
  it('come from the standard variables, with the public API by default', () => {
    expect(gitHubSettings({GITHUB_REPOSITORY: 'acme/docs', GITHUB_TOKEN: 't0ken'})).toEqual({
      apiUrl: 'https://api.github.com',
      owner: 'acme',
      repo: 'docs',
      token: 't0ken'
    })
    const enterprise = {GITHUB_API_URL: 'https://ghe.example/api/v3/', GITHUB_REPOSITORY: 'a/b', GH_TOKEN: 'x1y2'}
    expect(gitHubSettings(enterprise).apiUrl).toBe('https://ghe.example/api/v3')
  })

  it("take the repository from origin's URL when GITHUB_REPOSITORY is unset", () => {
    expect(repositoryOfRemote('https://github.com/acme/docs.git')).toEqual({owner: 'acme', repo: 'docs'})
    expect(repositoryOfRemote('git@github.com:acme/docs.git')).toEqual({owner: 'acme', repo: 'docs'})
    expect(repositoryOfRemote('/srv/git/docs.git')).toBeUndefined()
    expect(gitHubSettings({GITHUB_TOKEN: 'abcd'}, 'https://github.com/acme/handbook').repo).toBe('handbook')
  })

  it('name what is missing or unsafe', () => {
    expect(() => gitHubSettings({GITHUB_REPOSITORY: 'acme/docs'})).toThrow(/set GITHUB_TOKEN/)
    expect(() => gitHubSettings({GITHUB_TOKEN: 'abcd'}, '/srv/docs.git')).toThrow(/set GITHUB_REPOSITORY/)
    expect(() => gitHubSettings({GITHUB_REPOSITORY: 'acme', GITHUB_TOKEN: 'abcd'})).toThrow(/owner\/name/)
    const plain = {GITHUB_API_URL: 'http://api.example', GITHUB_REPOSITORY: 'a/b', GITHUB_TOKEN: 'abcd'}
    expect(() => gitHubSettings(plain)).toThrow(/https/)
  })
})

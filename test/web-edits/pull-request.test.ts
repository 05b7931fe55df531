/**
 * `kbsync pull --pull-request` end to end: the local knowledge-base server,
 * a bare local repository as `origin`, a local server speaking GitHub's
 * pull-request routes. A web edit opens one pull request; another updates it
 * (a new commit, the description patched); nothing new leaves everything
 * untouched. The checkout never changes, and the token appears nowhere.
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {serverSuite} from '../pull/server-suite.js'
import {cli, type CliRun} from '../e2e/push-helpers.js'
import {checkoutState, gitIn, makeFixture, serverEnv, webEdit, type Fixture} from './git-fixture.js'
import {startFakeGitHub, type FakeGitHub} from './github-server.js'

const suite = serverSuite('web-edits-pr')
const token = 'ghs_secretTokenForTheTests0123456789'
const branch = 'kbsync/web-edits'
let fixture: Fixture
let github: FakeGitHub
const runs: CliRun[] = []

beforeAll(async () => {
  fixture = await makeFixture(suite.client(), await suite.folder(), serverEnv(suite.server()))
  github = await startFakeGitHub({
    owner: 'acme',
    repo: 'handbook',
    token,
    headSha: (name) => gitIn(fixture.origin, 'rev-parse', `refs/heads/${name}`)
  })
})
afterAll(() => github?.close())

async function pullRequestRun(): Promise<CliRun> {
  const env = {...fixture.env, GITHUB_API_URL: github.url, GITHUB_REPOSITORY: 'acme/handbook', GITHUB_TOKEN: token}
  const run = await cli(['pull', fixture.docs, '--pull-request'], env)
  runs.push(run)
  return run
}

const originTip = () => gitIn(fixture.origin, 'rev-parse', `refs/heads/${branch}`)

describe('kbsync pull --pull-request', () => {
  it('opens one pull request for a web edit, the branch pushed to origin, the checkout untouched', async () => {
    const before = checkoutState(fixture.checkout)
    await webEdit(suite.client(), fixture.ids.Install!, 'Then restart the service.', 'Then restart the daemon.')
    const run = await pullRequestRun()
    expect(run.code, run.err).toBe(0)
    expect(checkoutState(fixture.checkout)).toEqual(before)
    expect(await readFile(path.join(fixture.docs, 'Install.md'), 'utf8')).toContain('restart the service')

    const tip = originTip()
    expect(gitIn(fixture.origin, 'rev-parse', `${tip}^`)).toBe(before.head)
    expect(gitIn(fixture.origin, 'show', `${tip}:docs/Install.md`)).toContain('restart the daemon')
    expect(gitIn(fixture.origin, 'log', '-1', '--format=%B', tip)).toContain('docs/Install.md')
    expect(gitIn(fixture.origin, 'diff', '--name-only', before.head, tip)).toBe('docs/Install.md')

    expect(github.writes().map((c) => `${c.method} ${c.path}`)).toEqual(['POST /repos/acme/handbook/pulls'])
    expect(github.pulls).toHaveLength(1)
    const pull = github.pulls[0]!
    expect(pull).toMatchObject({head: branch, base: 'main', state: 'open'})
    expect(pull.body).toContain('`docs/Install.md`')
    expect(pull.body).toContain('"Install"')
    expect(pull.body).not.toContain('Support.md')
    expect(run.out + run.err).toMatch(/Opened pull request #1/)
  })

  it('updates the same pull request on another web edit: a new commit, the description patched', async () => {
    const before = checkoutState(fixture.checkout)
    const first = originTip()
    await webEdit(suite.client(), fixture.ids.Install!, 'Check the logs.', 'Check the journal.')
    await webEdit(suite.client(), fixture.ids.Support!, 'within a day', 'within an hour')
    github.calls.length = 0
    const run = await pullRequestRun()
    expect(run.code, run.err).toBe(0)
    expect(checkoutState(fixture.checkout)).toEqual(before)

    const tip = originTip()
    expect(tip).not.toBe(first)
    expect(gitIn(fixture.origin, 'rev-parse', `${tip}^`)).toBe(first)
    const install = gitIn(fixture.origin, 'show', `${tip}:docs/Install.md`)
    expect(install).toContain('restart the daemon')
    expect(install).toContain('Check the journal.')
    expect(gitIn(fixture.origin, 'ls-tree', '-r', '--name-only', tip)).not.toMatch(/\.remote\.md/)
    const message = gitIn(fixture.origin, 'log', '-1', '--format=%B', tip)
    expect(message).toContain('docs/Support.md')
    expect(message).toContain('docs/Install.md')

    expect(github.writes().map((c) => `${c.method} ${c.path}`)).toEqual(['PATCH /repos/acme/handbook/pulls/1'])
    expect(github.pulls).toHaveLength(1)
    expect(github.pulls[0]!.body).toContain('`docs/Support.md`')
    expect(github.pulls[0]!.body).toContain('`docs/Install.md`')
    expect(run.out + run.err).toMatch(/Updated pull request #1/)
  })

  it('leaves everything untouched when nothing is new: no commit, no push, no write to GitHub', async () => {
    const before = checkoutState(fixture.checkout)
    const tip = originTip()
    github.calls.length = 0
    const run = await pullRequestRun()
    expect(run.code, run.err).toBe(0)
    expect(originTip()).toBe(tip)
    expect(github.writes()).toEqual([])
    expect(checkoutState(fixture.checkout)).toEqual(before)
    expect(run.out + run.err).toMatch(/up to date/)
  })

  it('never shows the token: not in any output, not in the git config, not in a remote URL', async () => {
    expect(runs.length).toBeGreaterThan(0)
    for (const run of runs) expect(run.out + run.err).not.toContain(token)
    expect(await readFile(path.join(fixture.checkout, '.git/config'), 'utf8')).not.toContain(token)
    expect(github.calls.every((c) => c.authorization === `Bearer ${token}`)).toBe(true)
  })
})

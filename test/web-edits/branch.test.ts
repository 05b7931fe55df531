/**
 * `kbsync pull --branch NAME` end to end against the local server: the pull
 * committed to a branch, the checkout (HEAD, branch, index, files) exactly
 * as it was; nothing new, no commit; a conflict goes into the branch as the
 * platform's version beside the file; the options it cannot go with refused.
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {serverSuite} from '../pull/server-suite.js'
import {cli} from '../e2e/push-helpers.js'
import {checkoutState, gitIn, makeFixture, serverEnv, webEdit, type Fixture} from './git-fixture.js'

const suite = serverSuite('web-edits-branch')
let fixture: Fixture

beforeAll(async () => {
  fixture = await makeFixture(suite.client(), await suite.folder(), serverEnv(suite.server()))
})

describe('kbsync pull --branch', () => {
  it('commits a web edit to a new branch made from HEAD, and leaves the checkout as it was', async () => {
    const before = checkoutState(fixture.checkout)
    await webEdit(suite.client(), fixture.ids.Support!, 'within a day', 'within an hour')
    const run = await cli(['pull', fixture.docs, '--branch', 'web-edits'], fixture.env)
    expect(run.code, run.err).toBe(0)
    expect(checkoutState(fixture.checkout)).toEqual(before)
    expect(await readFile(path.join(fixture.docs, 'Support.md'), 'utf8')).toContain('within a day')
    expect(gitIn(fixture.checkout, 'worktree', 'list')).not.toMatch(/kbsync-branch/)

    const tip = gitIn(fixture.checkout, 'rev-parse', 'web-edits')
    expect(gitIn(fixture.checkout, 'rev-parse', `${tip}^`)).toBe(before.head)
    expect(gitIn(fixture.checkout, 'diff', '--name-only', before.head, tip)).toBe('docs/Support.md')
    expect(gitIn(fixture.checkout, 'show', `${tip}:docs/Support.md`)).toContain('within an hour')
    const message = gitIn(fixture.checkout, 'log', '-1', '--format=%B', tip)
    expect(message).toMatch(/updated article docs\/Support\.md "Support"/)
    expect(run.out + run.err).toMatch(/Committed 1 document to web-edits/)
  })

  it('makes no commit when the branch already holds every edit', async () => {
    const tip = gitIn(fixture.checkout, 'rev-parse', 'web-edits')
    const run = await cli(['pull', fixture.docs, '--branch', 'web-edits'], fixture.env)
    expect(run.code, run.err).toBe(0)
    expect(gitIn(fixture.checkout, 'rev-parse', 'web-edits')).toBe(tip)
    expect(run.out + run.err).toMatch(/already holds these edits/)
  })

  it('commits a conflict as the platform version beside the file, and exits 3', async () => {
    const before = checkoutState(fixture.checkout)
    const install = path.join(fixture.docs, 'Install.md')
    const text = await readFile(install, 'utf8')
    await import('node:fs/promises').then((fs) =>
      fs.writeFile(install, text.replace('Run the installer.', 'Run setup.'))
    )
    gitIn(fixture.checkout, 'commit', '--quiet', '-am', 'a local edit')
    const head = gitIn(fixture.checkout, 'rev-parse', 'HEAD')
    await webEdit(suite.client(), fixture.ids.Install!, 'Run the installer.', 'Run the new installer.')
    const run = await cli(['pull', fixture.docs, '--branch', 'conflicts'], fixture.env)
    expect(run.code, run.err).toBe(3)
    expect(checkoutState(fixture.checkout)).toEqual({...before, head})
    const tip = gitIn(fixture.checkout, 'rev-parse', 'conflicts')
    expect(gitIn(fixture.checkout, 'show', `${tip}:docs/Install.md`)).toContain('Run setup.')
    expect(gitIn(fixture.checkout, 'show', `${tip}:docs/Install.remote.md`)).toContain('Run the new installer.')
    expect(gitIn(fixture.checkout, 'log', '-1', '--format=%B', tip)).toMatch(/docs\/Install\.remote\.md/)
  })

  it('commits the state with the files when the repository tracks it, and never one it does not', async () => {
    const tracked = await makeFixture(suite.client(), await suite.folder(), serverEnv(suite.server()), {
      ignoreState: false
    })
    await webEdit(suite.client(), tracked.ids.Support!, 'within a day', 'within a week')
    const run = await cli(['pull', tracked.docs, '--branch', 'web-edits'], tracked.env)
    expect(run.code, run.err).toBe(0)
    const changed = gitIn(tracked.checkout, 'diff', '--name-only', 'HEAD', 'web-edits').split('\n')
    const isBase = (file: string) => file.startsWith('docs/.kbsync/bases/')
    expect(changed.filter((file) => !isBase(file))).toEqual(['docs/.kbsync/state.json', 'docs/Support.md'])
    // The merge's bases (issue 31) travel with the state they belong to.
    expect(changed.some(isBase)).toBe(true)
    expect(gitIn(tracked.checkout, 'status', '--porcelain')).toBe('')
    // Untracked and not ignored: the copy the pull started from stays out of the branch.
    gitIn(tracked.checkout, 'rm', '-r', '--quiet', '--cached', 'docs/.kbsync')
    gitIn(tracked.checkout, 'commit', '--quiet', '-m', 'the state leaves git')
    const run2 = await cli(['pull', tracked.docs, '--branch', 'untracked'], tracked.env)
    expect(run2.code, run2.err).toBe(0)
    expect(gitIn(tracked.checkout, 'ls-tree', '-r', '--name-only', 'untracked')).not.toMatch(/\.kbsync/)
    expect(gitIn(tracked.checkout, 'diff', '--name-only', 'HEAD', 'untracked')).toBe('docs/Support.md')
  })

  it('refuses the checked-out branch, a bad name and --dry-run, writing nothing', async () => {
    const before = checkoutState(fixture.checkout)
    const refusals = [
      ['--branch', 'main'],
      ['--branch', 'bad..name'],
      ['--branch', 'web-edits', '--dry-run']
    ]
    for (const extra of refusals) {
      const run = await cli(['pull', fixture.docs, ...extra], fixture.env)
      expect(run.code, extra.join(' ')).toBe(2)
    }
    expect(checkoutState(fixture.checkout)).toEqual(before)
  })
})

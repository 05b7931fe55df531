/**
 * The GitHub Action (`action.yml`) run step by step as the runner runs a
 * composite action (`runner.ts`), against the real local server: the command
 * chosen by the event, the plan in the step summary and annotations, kbsync's
 * exit codes as the step's and the `exit-code` output, secrets kept out of the
 * log, inputs that cannot inject shell.
 */
import {existsSync} from 'node:fs'
import {chmod, cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {StructureNode} from '../../src/api/types.js'
import {builtDir} from '../built.js'
import {useLocalServer} from '../e2e/local-server.js'
import {runAction, type RunnerOptions} from './runner.js'
import {gitIn, makeFixture, serverEnv, webEdit} from '../web-edits/git-fixture.js'
import {startFakeGitHub} from '../web-edits/github-server.js'

const repo = fileURLToPath(new URL('../..', import.meta.url))
const local = useLocalServer()
let scratch: string
let actionPath: string

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'kbsync-action-'))
  // The action as a workflow checks it out, with the suite's build as a release's dist/ (so the install step skips).
  actionPath = path.join(scratch, 'action')
  await mkdir(actionPath)
  await cp(path.join(repo, 'action.yml'), path.join(actionPath, 'action.yml'))
  await cp(path.join(repo, 'scripts/action'), path.join(actionPath, 'scripts/action'), {recursive: true})
  await cp(path.join(repo, 'package.json'), path.join(actionPath, 'package.json'))
  await symlink(builtDir, path.join(actionPath, 'dist'))
  await symlink(path.join(repo, 'node_modules'), path.join(actionPath, 'node_modules'))
})
afterAll(async () => {
  await rm(scratch, {recursive: true, force: true})
})

/** A workspace with the handbook as `docs/`, and a fresh runner temp folder. */
async function workspace(name: string): Promise<{workspace: string; temp: string}> {
  const workspace = path.join(scratch, name)
  await cp(path.join(repo, 'fixtures/handbook'), path.join(workspace, 'docs'), {recursive: true})
  const temp = path.join(scratch, `${name}-runner`)
  await mkdir(temp)
  return {workspace, temp}
}

/** Runs the action for `event` with the server's URL and token as inputs. */
async function run(
  name: string,
  event: RunnerOptions['event'],
  inputs: Record<string, string> = {},
  prepare?: (docs: string) => Promise<void>
) {
  const folders = await workspace(name)
  await prepare?.(path.join(folders.workspace, 'docs'))
  const root = await local.client.createItem({type: 'topic', title: name, parent_topic_id: null})
  const given = {
    folder: 'docs',
    'api-url': local.server.apiUrl,
    'files-url': local.server.filesUrl,
    token: local.server.token,
    'root-topic': root.id,
    ...inputs
  }
  const result = await runAction({actionPath, ...folders, event, inputs: given})
  return {...result, ...folders, root: root.id, inputs: given}
}

const pullRequest = {name: 'pull_request', ref: 'refs/pull/7/merge', defaultBranch: 'main'}
const pushToMain = {name: 'push', ref: 'refs/heads/main', defaultBranch: 'main'}

async function titlesUnder(topicId: string): Promise<string[]> {
  const walk = (nodes: StructureNode[]): string[] => nodes.flatMap((node) => [node.title, ...walk(node.children ?? [])])
  return walk(await local.client.getTree(topicId))
}

describe('the GitHub Action', () => {
  it('plans on a pull request: the plan in the step summary, nothing written, exit code 0', async () => {
    const result = await run('pr', pullRequest)
    expect(result.failed).toBe(false)
    expect(result.outputs).toEqual({command: 'plan', 'exit-code': '0'})
    expect(result.summary).toMatch(/kbsync plan/i)
    expect(result.summary).toContain('Welcome')
    expect(await titlesUnder(result.root)).toEqual([])
    // setup-node and the state cache are the runner's own actions, recorded, not run; nothing is saved on a plan.
    expect(result.steps.filter((step) => step.outcome === 'recorded').map((step) => step.uses)).toEqual([
      'actions/setup-node@v4',
      'actions/cache/restore@v4'
    ])
    expect(result.steps.find((step) => step.name === 'Save the sync state')?.outcome).toBe('skipped')
  })

  it('pushes on the default branch, then saves the sync state; a second run writes nothing', async () => {
    const result = await run('main', pushToMain)
    expect(result.failed).toBe(false)
    expect(result.outputs).toEqual({command: 'push', 'exit-code': '0'})
    expect(await titlesUnder(result.root)).toContain('Welcome to Acme')
    expect(result.summary).toMatch(/kbsync push/i)
    expect(existsSync(path.join(result.workspace, 'docs/.kbsync/state.json'))).toBe(true)
    const save = result.steps.find((step) => step.name === 'Save the sync state')
    expect(save?.outcome).toBe('recorded')
    expect(save?.with?.path).toContain('**/.kbsync/state.json')
    expect(save?.with?.path).toContain('**/.kbsync/link-cache.json')
    const again = await runAction({
      actionPath,
      workspace: result.workspace,
      temp: await mkdtemp(path.join(scratch, 'again-')),
      event: pushToMain,
      inputs: result.inputs
    })
    expect(again.outputs).toEqual({command: 'push', 'exit-code': '0'})
    expect(again.summary).toContain('0 write request(s)')
  })

  it('checks links on request and keeps their cache for the next run', async () => {
    const result = await run('links', pullRequest, {command: 'check-links'})
    expect(result.outputs).toEqual({command: 'check-links', 'exit-code': '0'})
    expect(result.steps.find((step) => step.name === 'Save the sync state')?.outcome).toBe('recorded')
  })

  it('plans on any other branch, so a feature branch never writes the knowledge base', async () => {
    const result = await run('feature', {name: 'push', ref: 'refs/heads/feature/x', defaultBranch: 'main'})
    expect(result.outputs.command).toBe('plan')
    expect(await titlesUnder(result.root)).toEqual([])
  })

  it("fails the step with kbsync's exit code 2 on invalid input, with an annotation on the file, writing nothing", async () => {
    const result = await run('invalid', pushToMain, {}, (docs) =>
      writeFile(path.join(docs, 'broken.md'), '# Broken\n\nSee [the missing page](missing.md).\n')
    )
    expect(result.failed).toBe(true)
    expect(result.outputs).toEqual({command: 'push', 'exit-code': '2'})
    const step = result.steps.find((s) => s.name === 'kbsync push')!
    expect(step.exitCode).toBe(2)
    expect(step.stdout).toMatch(/^::error file=docs\/broken\.md,line=3,/m)
    expect(await titlesUnder(result.root)).toEqual([])
    // always(): the state of the steps that did land is kept even after a failure.
    expect(result.steps.find((s) => s.name === 'Save the sync state')?.outcome).toBe('recorded')
  })

  it('takes the command as given; an unknown one fails with exit 2 before kbsync runs', async () => {
    const result = await run('unknown', pullRequest, {command: 'deploy'})
    expect(result.failed).toBe(true)
    const decide = result.steps.find((step) => step.name === 'Choose the command')!
    expect(decide.exitCode).toBe(2)
    expect(decide.stdout).toContain('::error title=kbsync action::The input command is "deploy"')
    expect(result.steps.find((step) => step.name.startsWith('kbsync'))?.outcome).toBe('skipped')
  })

  it('keeps the token out of the log and the summary, and runs no shell from the args input', async () => {
    const result = await run('secrets', pullRequest, {args: '--quiet; touch pwned $(touch pwned2)'})
    const log = result.steps.map((step) => step.stdout + step.stderr).join('\n')
    const unmasked = log
      .split('\n')
      .filter((line) => line.includes(local.server.token) && !line.startsWith('::add-mask::'))
    expect(unmasked).toEqual([])
    expect(log).toContain(`::add-mask::${local.server.token}`)
    expect(result.summary).not.toContain(local.server.token)
    expect(existsSync(path.join(result.workspace, 'pwned'))).toBe(false)
    expect(existsSync(path.join(result.workspace, 'pwned2'))).toBe(false)
    // The words reach kbsync as arguments, which refuses them: usage error.
    expect(result.outputs['exit-code']).toBe('2')
  })

  it('installs and builds kbsync when the checkout of the action has no dist/', async () => {
    const bare = path.join(scratch, 'bare-action')
    await mkdir(path.join(bare, 'bin'), {recursive: true})
    await cp(path.join(repo, 'action.yml'), path.join(bare, 'action.yml'))
    await cp(path.join(repo, 'scripts/action'), path.join(bare, 'scripts/action'), {recursive: true})
    // A stand-in npm that records its calls and "builds" by linking the suite's build.
    const calls = path.join(bare, 'npm-calls')
    await writeFile(
      path.join(bare, 'bin/npm'),
      `#!/usr/bin/env bash\necho "$*" >> ${JSON.stringify(calls)}\nif [ "$1" = run ]; then ln -s ${JSON.stringify(builtDir)} dist; fi\n`
    )
    await chmod(path.join(bare, 'bin/npm'), 0o755)
    const folders = await workspace('bare')
    const result = await runAction({
      actionPath: bare,
      ...folders,
      event: pullRequest,
      inputs: {folder: 'docs', 'api-url': local.server.apiUrl, token: local.server.token},
      env: {PATH: `${path.join(bare, 'bin')}:${process.env.PATH}`}
    })
    expect((await readFile(calls, 'utf8')).trim().split('\n')).toEqual([
      'ci --no-audit --no-fund --loglevel=error',
      'run build --silent'
    ])
    expect(result.outputs).toEqual({command: 'plan', 'exit-code': '0'})
  })

  it('pull-request (a scheduled run): the web edits committed, pushed and proposed in one pull request', async () => {
    const fixture = await makeFixture(local.client, await mkdtemp(path.join(scratch, 'web-')), serverEnv(local.server))
    const githubToken = 'ghs_actionTestToken0123456789abcdef'
    const headSha = (name: string) => gitIn(fixture.origin, 'rev-parse', `refs/heads/${name}`)
    const github = await startFakeGitHub({owner: 'acme', repo: 'handbook', token: githubToken, headSha})
    try {
      await webEdit(local.client, fixture.ids.Install!, 'Check the logs.', 'Check the journal.')
      const result = await runAction({
        actionPath,
        workspace: fixture.checkout,
        temp: await mkdtemp(path.join(scratch, 'web-runner-')),
        event: {name: 'schedule', ref: 'refs/heads/main', defaultBranch: 'main'},
        inputs: {
          command: 'pull-request',
          folder: 'docs',
          'api-url': local.server.apiUrl,
          'files-url': local.server.filesUrl,
          token: local.server.token,
          'root-topic': fixture.rootTopic,
          'github-token': githubToken
        },
        env: {GITHUB_REPOSITORY: 'acme/handbook', GITHUB_API_URL: github.url}
      })
      expect(result.outputs).toEqual({command: 'pull-request', 'exit-code': '0'})
      expect(gitIn(fixture.origin, 'show', 'kbsync/web-edits:docs/Install.md')).toContain('Check the journal.')
      expect(github.pulls.map((pull) => pull.head)).toEqual(['kbsync/web-edits'])
      expect(result.steps.find((step) => step.name === 'Save the sync state')?.outcome).toBe('skipped')
      const log = result.steps.map((step) => step.stdout + step.stderr).join('\n')
      expect(log.split('\n').filter((line) => line.includes(githubToken) && !line.startsWith('::add-mask::'))).toEqual(
        []
      )
    } finally {
      await github.close()
    }
  })
})

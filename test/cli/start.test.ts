/**
 * `npm start` from a fresh clone: the committed tree is cloned into a
 * temporary folder (node_modules linked, not installed: no network), built,
 * and pushes the sample handbook to the embedded local knowledge base,
 * printing what it pushed and the remote tree.
 *
 * It builds the whole project once more (over a minute on a busy 2-core
 * machine), so it runs only with KBSYNC_FRESH_CLONE=1:
 * `KBSYNC_FRESH_CLONE=1 npx vitest run test/cli/start.test.ts`.
 */
import {execFileSync, spawnSync} from 'node:child_process'
import {mkdtemp, rm, symlink} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

const repo = path.resolve('.')
const isClone =
  spawnSync('git', ['rev-parse', '--is-inside-work-tree'], {cwd: repo}).stdout?.toString().trim() === 'true'
let work: string | undefined

afterAll(async () => {
  if (work) await rm(work, {recursive: true, force: true})
})

describe.runIf(isClone && process.env.KBSYNC_FRESH_CLONE === '1')('npm start from a fresh clone', () => {
  it('builds, pushes the handbook to the embedded knowledge base and prints the result', async () => {
    work = await mkdtemp(path.join(tmpdir(), 'kbsync-clone-'))
    const clone = path.join(work, 'kbsync')
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', repo, clone])
    await symlink(path.join(repo, 'node_modules'), path.join(clone, 'node_modules'), 'dir')
    const env = Object.fromEntries(
      Object.entries(process.env).filter(
        ([key]) => !key.startsWith('KBSYNC_') && !key.startsWith('npm_') && key !== 'GITHUB_ACTIONS'
      )
    )
    const result = spawnSync('npm', ['start', '--silent'], {
      cwd: clone,
      env: {...env, NO_COLOR: '1'},
      encoding: 'utf8',
      timeout: 150_000
    })
    const output = `${result.stdout}\n${result.stderr}`
    expect(result.status, output).toBe(0)
    expect(result.stdout).toContain('embedded local knowledge base')
    expect(result.stdout).toMatch(/created article welcome\.md \(\w+\)/)
    expect(result.stdout).toContain('No changes: the knowledge base matches the folder.')
    expect(result.stdout).toMatch(/The remote tree \(\d+ items\)/)
    expect(result.stdout).toContain('Welcome to Acme')
  }, 180_000)
})

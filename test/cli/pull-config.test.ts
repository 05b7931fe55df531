/**
 * `kbsync pull` opens its session like push: `--config FILE` from another
 * folder, `--verbose` client events, `--quiet`, and never a secret in output.
 * In-process CLI against the real local server over HTTP.
 */
import {mkdir, readFile, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startServer} from '../../src/server/index.js'
import {run, tempDir} from './helpers.js'

const token = 'pull-secret-token-7f3a9c'
let server: Awaited<ReturnType<typeof startServer>>
let base: string

beforeAll(async () => {
  server = await startServer({port: 0, token})
  base = await tempDir('kbsync-pull-config-')
  // Content to pull: pushed from a folder of its own.
  const source = path.join(base, 'source')
  await mkdir(path.join(source, 'Guides'), {recursive: true})
  await writeFile(path.join(source, 'Guides', 'Install.md'), '---\ntitle: Install\n---\n\nRun the installer.\n')
  const env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: token}
  const push = await run(['push', source], {cwd: base, env})
  expect(push.code, push.err).toBe(0)
})

afterAll(async () => {
  await server?.close()
  if (base) await rm(base, {recursive: true, force: true})
})

describe('kbsync pull with the shared session', () => {
  it('reads --config FILE from another folder, shows client events with --verbose and never the token', async () => {
    const project = path.join(base, 'project')
    await mkdir(project, {recursive: true})
    const configFile = path.join(project, 'kbsync.config.json')
    await writeFile(configFile, JSON.stringify({dir: 'handbook', apiUrl: server.apiUrl, filesUrl: server.filesUrl}))
    const elsewhere = await tempDir('kbsync-pull-cwd-')
    // A config file's URLs get the token only on an origin the user trusts (test/security/config-trust.test.ts).
    const result = await run(['pull', '--config', configFile, '--verbose'], {
      cwd: elsewhere,
      env: {KBSYNC_TOKEN: token, KBSYNC_TRUSTED_ORIGINS: new URL(server.apiUrl).origin}
    })
    expect(result.code, result.err).toBe(0)
    // The config file's dir, relative to the file, not to the working directory.
    expect(await readFile(path.join(project, 'handbook', 'Guides', 'Install.md'), 'utf8')).toContain(
      'Run the installer.'
    )
    expect(result.out).toContain('Done: ')
    expect(result.err).toMatch(/^api: \w+ GET \S+/m)
    expect(result.out + result.err).not.toContain(token)
    await rm(elsewhere, {recursive: true, force: true})
  })

  it('--quiet prints nothing but problems; --dry-run --json prints only JSON', async () => {
    const env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: token}
    const dir = path.join(base, 'quiet')
    const quiet = await run(['pull', dir, '--quiet'], {cwd: base, env})
    expect(quiet.code, quiet.err).toBe(0)
    expect(quiet.out).toBe('')
    expect(await readFile(path.join(dir, 'Guides', 'Install.md'), 'utf8')).toContain('Run the installer.')
    const dry = await run(['pull', dir, '--dry-run', '--json'], {cwd: base, env})
    expect(dry.code).toBe(0)
    expect(JSON.parse(dry.out)).toMatchObject({ops: [], summary: {create: 0}})
  })

  it('a bad config value exits 2 and names it without the token', async () => {
    const env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_TOKEN: token, KBSYNC_CONCURRENCY: 'many'}
    const bad = await run(['pull', path.join(base, 'bad')], {cwd: base, env})
    expect(bad.code).toBe(2)
    expect(bad.err).toContain('KBSYNC_CONCURRENCY')
    expect(bad.out + bad.err).not.toContain(token)
  })
})

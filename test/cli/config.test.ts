/**
 * Config: discovery walking up, precedence flags > env > file > defaults,
 * validation errors naming the key and the file, secrets kept out of files
 * and output.
 */
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {PassThrough} from 'node:stream'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ConfigError, loadConfig, redact, redactConfig} from '../../src/cli/config.js'
import {main} from '../../src/cli/index.js'

let root: string

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'kbsync-config-'))
})
afterAll(async () => {
  await rm(root, {recursive: true, force: true})
})

async function project(name: string, config: unknown, fileName = 'kbsync.config.json'): Promise<string> {
  const dir = path.join(root, name)
  await mkdir(path.join(dir, 'docs', 'sub'), {recursive: true})
  await writeFile(path.join(dir, fileName), typeof config === 'string' ? config : JSON.stringify(config, null, 2))
  return dir
}

describe('loadConfig', () => {
  it('applies defaults without a file', async () => {
    const dir = path.join(root, 'empty')
    await mkdir(dir, {recursive: true})
    const config = await loadConfig({cwd: dir, env: {}})
    expect(config).toMatchObject({
      dir,
      rootTopic: null,
      concurrency: 8,
      prune: false,
      maxDeletions: 10,
      ignore: [],
      watch: {debounceMs: 300},
      preview: {port: 4400}
    })
    expect(config.apiUrl).toBeUndefined()
    expect(config.sources.concurrency).toBe('default')
  })

  it('finds the file walking up from cwd (inside its repository) and resolves its paths against the file', async () => {
    const dir = await project('walk', {dir: 'docs', concurrency: 3, watch: {debounceMs: 50}}, '.kbsyncrc.json')
    // The search stops at the repository root (test/security/config-trust.test.ts): here, the project.
    await mkdir(path.join(dir, '.git'))
    const config = await loadConfig({cwd: path.join(dir, 'docs', 'sub'), env: {}})
    expect(config.configFile).toBe(path.join(dir, '.kbsyncrc.json'))
    expect(config.dir).toBe(path.join(dir, 'docs'))
    expect(config.concurrency).toBe(3)
    expect(config.watch.debounceMs).toBe(50)
  })

  it('precedence: flags > env > file > defaults, key by key', async () => {
    const dir = await project('precedence', {
      apiUrl: 'https://file.example/v4',
      rootTopic: 'FILE',
      concurrency: 2,
      maxDeletions: 5,
      prune: true
    })
    const env = {KBSYNC_API_URL: 'https://env.example/v4/', KBSYNC_CONCURRENCY: '4', KBSYNC_TOKEN: 'tok-env-secret'}
    const flags = {concurrency: '6', json: true, 'exit-code': true}
    const config = await loadConfig({cwd: dir, env, flags})
    expect(config.concurrency).toBe(6) // flag over env over file
    expect(config.sources.concurrency).toBe('flag')
    expect(config.apiUrl).toBe('https://env.example/v4') // env over file, trailing slash stripped
    expect(config.sources.apiUrl).toBe('env')
    expect(config.rootTopic).toBe('FILE') // file over default
    expect(config.maxDeletions).toBe(5)
    expect(config.prune).toBe(true) // an absent boolean flag does not switch the file's value off
    expect(config.preview.port).toBe(4400) // default
    expect(config.token).toBe('tok-env-secret')
    const flagged = await loadConfig({
      cwd: dir,
      env,
      flags: {'root-topic': 'FLAG', 'api-url': 'http://127.0.0.1:9/v4'},
      dir: 'docs'
    })
    expect(flagged.rootTopic).toBe('FLAG')
    expect(flagged.apiUrl).toBe('http://127.0.0.1:9/v4')
    expect(flagged.dir).toBe(path.join(dir, 'docs'))
  })

  it('reads the token from a token file the user config names, never from the config file', async () => {
    const dir = await project('token-file', {})
    // A repository config may not name a token file (test/security/config-trust.test.ts); the user config may.
    const home = path.join(root, 'token-file-home')
    await mkdir(home, {recursive: true})
    await writeFile(path.join(home, 'kbsync.json'), JSON.stringify({tokenFile: 'secret.txt'}))
    await writeFile(path.join(home, 'secret.txt'), 'tok-from-file\n')
    const config = await loadConfig({cwd: dir, env: {KBSYNC_USER_CONFIG: path.join(home, 'kbsync.json')}})
    expect(config.token).toBe('tok-from-file')
    expect(JSON.stringify(redactConfig(config))).not.toContain('tok-from-file')
  })

  it('rejects a token in the config file, saying why', async () => {
    const dir = await project('token-in-file', {token: 'tok-do-not-commit'})
    const error = await loadConfig({cwd: dir, env: {}}).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).key).toBe('token')
    expect((error as Error).message).toContain('kbsync.config.json')
    expect((error as Error).message).toContain('KBSYNC_TOKEN')
    expect((error as Error).message).not.toContain('tok-do-not-commit')
  })

  it.each([
    [{concurrency: 0}, 'concurrency', 'integer from 1 to 64'],
    [{concurrency: '8'}, 'concurrency', 'integer'],
    [{watch: {debounceMs: -1}}, 'watch.debounceMs', 'integer'],
    [{watch: {delay: 1}}, 'watch.delay', 'unknown key'],
    [{apiUrl: 'ftp://x'}, 'apiUrl', 'http(s) URL'],
    [{prune: 'yes'}, 'prune', 'true or false'],
    [{ignore: 'drafts'}, 'ignore', 'array of strings'],
    [{colour: true}, 'colour', 'unknown key']
  ])('names the key of an invalid value: %j', async (data, key, text) => {
    const dir = await project(`bad-${key}-${Math.random().toString(36).slice(2)}`, data)
    const error = (await loadConfig({cwd: dir, env: {}}).catch((e: unknown) => e)) as ConfigError
    expect(error).toBeInstanceOf(ConfigError)
    expect(error.key).toBe(key)
    expect(error.message).toContain(`"${key}"`)
    expect(error.message).toContain(text)
    expect(error.message).toContain(path.join(dir, 'kbsync.config.json'))
  })

  it('names the environment variable of an invalid value', async () => {
    const error = (await loadConfig({cwd: root, env: {KBSYNC_CONCURRENCY: 'many'}}).catch(
      (e: unknown) => e
    )) as ConfigError
    expect(error).toBeInstanceOf(ConfigError)
    expect(error.message).toContain('KBSYNC_CONCURRENCY')
  })

  it('reports invalid JSON with the file and line', async () => {
    const dir = await project('bad-json', '{\n  "dir": "docs",\n  oops\n}')
    const error = (await loadConfig({cwd: dir, env: {}}).catch((e: unknown) => e)) as ConfigError
    expect(error).toBeInstanceOf(ConfigError)
    expect(error.message).toContain('kbsync.config.json')
    expect(error.message).toMatch(/line 3/)
  })
})

describe('redact', () => {
  it('masks secrets, bearer tokens and URL passwords', () => {
    const text = redact('token abcd1234 sent as Authorization: Bearer abcd1234 to https://u:pw12@h.example/x', [
      'abcd1234'
    ])
    expect(text).not.toContain('abcd1234')
    expect(text).not.toContain('pw12')
    expect(text).toContain('[redacted]')
  })
})

describe('the CLI maps a config error to exit 2', () => {
  it('plan with an invalid config file exits 2 naming the key', async () => {
    const dir = await project('cli-bad', {concurrency: 1000})
    const stdout = new PassThrough()
    const stderr = new PassThrough()
    let err = ''
    stderr.on('data', (d) => (err += String(d)))
    const code = await main(['plan'], {cwd: dir, env: {}, stdout, stderr, stdin: new PassThrough()})
    expect(code).toBe(2)
    expect(err).toContain('"concurrency"')
    expect(err).toContain('kbsync.config.json')
  })
})

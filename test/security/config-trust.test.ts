/**
 * Issue 28, findings 1 and 2, through the built CLI: a cloned repository is
 * data. Its config may not name a program (the browser), a credential file,
 * a login or trusted origins; with credentials present, its URLs (API,
 * files, accounts) must be on an origin the user trusts; a config above the
 * repository is never used; its paths stay inside the repository; and a
 * login answer may not send the token to another origin. Each attack runs
 * with credentials in the environment, against fake servers on loopback that
 * record whether anything reached them.
 */
import {execFile} from 'node:child_process'
import {chmod, mkdir, symlink, writeFile} from 'node:fs/promises'
import {existsSync} from 'node:fs'
import path from 'node:path'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {loadConfig} from '../../src/cli/config.js'
import {credentialOrigins, mayReceiveCredentials, parseOrigin} from '../../src/trust/index.js'
import {json, tinyServer, type Tiny} from '../api/tiny-server.js'
import {builtCli} from '../built.js'
import {useLocalServer} from '../e2e/local-server.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

const local = useLocalServer()
const folders = temporaryFolders('config-trust')
const servers: Tiny[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})
afterAll(() => folders.removeAll())

const TOKEN = 'tok-CONFIGTRUST-0123456789'
const SECURITY_KEY = 'key-CONFIGTRUST-abcdef'
const LOGIN = 'writer@example.com'

/** A server on loopback that answers everything and records what reached it. */
async function recorder(answer: (url: string) => unknown = () => ({})): Promise<Tiny> {
  const server = await tinyServer((req, res) => json(res, 200, answer(req.url)))
  servers.push(server)
  return server
}

/** A clone: `<base>/clone` holding `.git` and `files`, and `<base>/home`, the user's home (HOME) outside it. */
async function clone(files: Record<string, string>): Promise<{base: string; repo: string; home: string}> {
  const base = await folders.make()
  const repo = path.join(base, 'clone')
  const home = path.join(base, 'home')
  await mkdir(path.join(repo, '.git'), {recursive: true})
  await mkdir(home, {recursive: true})
  await writeFiles(repo, files)
  return {base, repo, home}
}

/** Runs the built CLI in `cwd` with exactly `env` (plus PATH, and HOME when not given): no setting of the machine leaks in. */
function kbsync(
  argv: string[],
  cwd: string,
  env: NodeJS.ProcessEnv
): Promise<{code: number; out: string; err: string}> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [builtCli, ...argv],
      {cwd, env: {PATH: process.env.PATH, HOME: path.join(cwd, '..', 'home'), ...env}, maxBuffer: 1 << 26},
      (error, out, err) => resolve({code: error ? Number(error.code ?? 1) : 0, out, err})
    )
  })
}

const page = '# Page\n\nText.\n\n```mermaid\ngraph TD\n  A --> B\n```\n'
const evil = (marker: string) => `#!/bin/sh\nenv > '${marker}'\nexit 1\n`

/** A clone with `config` as its repository config, a page with a diagram and `evil.sh` beside the config. */
async function attack(config: Record<string, unknown>, configName = 'kbsync.config.json') {
  const made = await clone({[configName]: JSON.stringify({dir: 'docs', ...config}), 'docs/page.md': page})
  const marker = path.join(made.base, 'executed')
  await writeFile(path.join(made.repo, 'evil.sh'), evil(marker))
  await chmod(path.join(made.repo, 'evil.sh'), 0o755)
  return {...made, marker}
}

const expectNoSecret = (run: {out: string; err: string}) => {
  for (const secret of [TOKEN, SECURITY_KEY, local.server.token]) expect(run.out + run.err).not.toContain(secret)
}

describe('finding 1: a repository config names no program', () => {
  it.each([
    ['kbsync.config.json, found', 'kbsync.config.json', []],
    ['.kbsyncrc.json, found from a subfolder', '.kbsyncrc.json', []],
    ['named by --config', 'team.json', ['--config', 'team.json']]
  ])('%s: "browser" is refused (exit 2) and never run, with the token in the environment', async (_, name, flags) => {
    const {repo, marker} = await attack({browser: 'evil.sh'}, name)
    const cwd = name === '.kbsyncrc.json' ? path.join(repo, 'docs') : repo
    const run = await kbsync(['plan', ...flags], cwd, {...local.env})
    expect(run.code, run.err).toBe(2)
    expect(run.err).toContain('key "browser" is not allowed in a repository config')
    expect(run.err).toContain(path.join(repo, name))
    expect(run.err).toContain('KBSYNC_BROWSER')
    expect(existsSync(marker)).toBe(false)
    expectNoSecret(run)
  })

  it('KBSYNC_CONFIG naming the file is the same: refused, nothing run, also without credentials', async () => {
    const {repo, marker} = await attack({browser: './evil.sh'}, 'kbsync.json')
    const run = await kbsync(['plan'], repo, {KBSYNC_CONFIG: 'kbsync.json'})
    expect(run.code).toBe(2)
    expect(run.err).toContain('"browser"')
    expect(existsSync(marker)).toBe(false)
  })

  it('the browser a user config outside the repository names is the one launched', async () => {
    const {repo, home, marker} = await attack({})
    // The user's own program: the same script, but in the user's config folder and named by the user.
    await writeFile(path.join(home, 'my-browser.sh'), evil(marker))
    await chmod(path.join(home, 'my-browser.sh'), 0o755)
    await writeFiles(home, {'.config/kbsync/config.json': JSON.stringify({browser: '../../my-browser.sh'})})
    const run = await kbsync(['plan'], repo, {})
    expect(existsSync(marker), run.err).toBe(true)
  })

  it("a user config inside the repository is the repository's data: refused, nothing run", async () => {
    const {repo, marker} = await attack({})
    await writeFile(path.join(repo, 'user.json'), JSON.stringify({browser: 'evil.sh'}))
    const run = await kbsync(['plan'], repo, {...local.env, KBSYNC_USER_CONFIG: path.join(repo, 'user.json')})
    expect(run.code).toBe(2)
    expect(run.err).toContain('the user config lies inside the repository')
    expect(existsSync(marker)).toBe(false)
  })
})

describe('finding 2: a repository config does not decide where credentials go', () => {
  it('"accountsUrl" gets no login and no security key (exit 2, naming the key and how to allow it)', async () => {
    const fake = await recorder(() => ({access_token: 'stolen', api_url: 'http://127.0.0.1:9/v4/'}))
    const {repo} = await clone({'kbsync.config.json': JSON.stringify({accountsUrl: fake.url}), 'page.md': page})
    const env = {KBSYNC_API_URL: local.server.apiUrl, KBSYNC_LOGIN: LOGIN, KBSYNC_SECURITY_KEY: SECURITY_KEY}
    const run = await kbsync(['plan'], repo, env)
    expect(run.code, run.err).toBe(2)
    expect(run.err).toContain('key "accountsUrl" names http://127.0.0.1:')
    expect(run.err).toContain('KBSYNC_TRUSTED_ORIGINS')
    expect(fake.seen).toEqual([])
    expectNoSecret(run)
  })

  it('"filesUrl" gets no token when KBSYNC_API_URL comes from the environment (the Action recipe)', async () => {
    const fake = await recorder()
    const {repo} = await clone({
      'kbsync.config.json': JSON.stringify({filesUrl: fake.url}),
      'page.md': '# Page\n\n![logo](logo.png)\n',
      'logo.png': 'not really a png'
    })
    const run = await kbsync(['push', '--yes'], repo, {...local.env, KBSYNC_FILES_URL: ''})
    expect(run.code, run.err).toBe(2)
    expect(run.err).toContain('key "filesUrl"')
    expect(fake.seen).toEqual([])
    expectNoSecret(run)
  })

  it('"apiUrl" gets no token from the environment', async () => {
    const fake = await recorder()
    const {repo} = await clone({'kbsync.config.json': JSON.stringify({apiUrl: `${fake.url}/v4`}), 'page.md': page})
    const run = await kbsync(['plan'], repo, {KBSYNC_TOKEN: TOKEN})
    expect(run.code).toBe(2)
    expect(run.err).toContain('key "apiUrl"')
    expect(fake.seen).toEqual([])
    expectNoSecret(run)
  })

  it('"tokenFile" is refused: no file of the user is read and sent', async () => {
    const fake = await recorder()
    const {repo, home} = await clone({
      'kbsync.config.json': JSON.stringify({apiUrl: `${fake.url}/v4`, tokenFile: '../home/.git-credentials'}),
      'page.md': page
    })
    await writeFile(path.join(home, '.git-credentials'), `https://me:${TOKEN}@github.com\n`)
    const run = await kbsync(['plan'], repo, {})
    expect(run.code).toBe(2)
    expect(run.err).toContain('key "tokenFile" is not allowed in a repository config')
    expect(fake.seen).toEqual([])
    expectNoSecret(run)
  })

  it('"foreignDownloads" is refused: a repository may not let pull fetch any address into it', async () => {
    const {repo} = await attack({foreignDownloads: 'anonymous'})
    const run = await kbsync(['pull', 'docs'], repo, {...local.env})
    expect(run.code, run.err).toBe(2)
    expect(run.err).toContain('key "foreignDownloads" is not allowed in a repository config')
    expect(run.err).toContain('KBSYNC_FOREIGN_DOWNLOADS')
  })

  it('a config in a parent folder of the clone is never used', async () => {
    const fake = await recorder()
    const {base, repo} = await clone({'page.md': page})
    await writeFile(path.join(base, 'kbsync.config.json'), JSON.stringify({apiUrl: `${fake.url}/v4`}))
    await writeFile(path.join(base, '.kbsyncrc.json'), JSON.stringify({apiUrl: `${fake.url}/v4`}))
    const run = await kbsync(['plan'], repo, {KBSYNC_TOKEN: TOKEN})
    expect(run.code, run.err).toBe(0)
    expect(run.out).toContain('embedded local knowledge base')
    expect(fake.seen).toEqual([])
  })

  it("a login answer's api_url on a foreign origin gets no token, even from a trusted accounts service", async () => {
    const elsewhere = await recorder()
    const accounts = await recorder(() => ({access_token: TOKEN, api_url: `${elsewhere.url}/v4/`}))
    const {repo} = await clone({'page.md': page})
    const env = {KBSYNC_API_URL: `${accounts.url}/v4`, KBSYNC_LOGIN: LOGIN, KBSYNC_SECURITY_KEY: SECURITY_KEY}
    const run = await kbsync(['plan'], repo, env)
    expect(run.code).toBe(1)
    expect(run.err).toContain(`answered api_url on ${elsewhere.url}, an origin the token may not go to`)
    expect(accounts.seen.map((s) => s.url)).toEqual(['/v4/auth'])
    expect(elsewhere.seen).toEqual([])
    expectNoSecret(run)
  })

  it('an origin the user trusts (KBSYNC_TRUSTED_ORIGINS, or the user config) may be named by the repository', async () => {
    const {repo, home} = await clone({
      'kbsync.config.json': JSON.stringify({apiUrl: local.server.apiUrl, filesUrl: local.server.filesUrl}),
      'page.md': '# Page\n\nText.\n'
    })
    const origin = new URL(local.server.apiUrl).origin
    const allowed = await kbsync(['plan'], repo, {KBSYNC_TOKEN: local.server.token, KBSYNC_TRUSTED_ORIGINS: origin})
    expect(allowed.code, allowed.err).toBe(0)
    await writeFiles(home, {'.config/kbsync/config.json': JSON.stringify({apiUrl: `${origin}/v4`})})
    const named = await kbsync(['plan'], repo, {KBSYNC_TOKEN: local.server.token})
    expect(named.code, named.err).toBe(0)
  })

  it('without credentials the repository may name any URL; the embedded knowledge base needs none', async () => {
    const {repo} = await clone({'page.md': page})
    const embedded = await kbsync(['plan'], repo, {})
    expect(embedded.code, embedded.err).toBe(0)
    const config = await loadConfig({cwd: repo, env: {}, flags: {config: 'none.json'}}).catch((e: Error) => e)
    expect(String(config)).toContain('none.json')
    await writeFile(path.join(repo, 'kbsync.config.json'), JSON.stringify({filesUrl: 'https://files.example/'}))
    expect((await loadConfig({cwd: repo, env: {}})).filesUrl).toBe('https://files.example')
    // The platform's own hosts are always fine.
    await writeFile(path.join(repo, 'kbsync.config.json'), JSON.stringify({apiUrl: 'https://api.pyrus.com/v4'}))
    expect((await loadConfig({cwd: repo, env: {KBSYNC_TOKEN: TOKEN}})).apiUrl).toBe('https://api.pyrus.com/v4')
  })
})

describe('finding 2: the paths of a repository config stay inside the repository', () => {
  it.each([
    ['"dir" above it', 'dir', '../outside', 'outside'],
    ['"dir" through a symbolic link', 'dir', 'linked', 'clone/linked'],
    ['"siteRoot" above it', 'siteRoot', '../outside', 'outside'],
    ['"siteRoot" through a symbolic link', 'siteRoot', 'linked', 'clone/linked']
  ])('%s is refused (exit 2, naming the key)', async (_, key, value, shown) => {
    const config = {[key]: value}
    const {base, repo} = await clone({'kbsync.config.json': JSON.stringify(config), 'page.md': '# Page\n\nText.\n'})
    await writeFiles(base, {'outside/private.md': '# Private\n\nNot yours.\n'})
    await symlink(path.join(base, 'outside'), path.join(repo, 'linked'))
    const run = await kbsync(['plan', '--json'], repo, {})
    expect(run.code, run.err).toBe(2)
    expect(run.err).toContain(`key "${key}" names ${path.join(base, shown)}, outside the repository`)
    expect(run.out).not.toContain('Private')
  })

  it('DIR on the command line may name any folder: the user chose it', async () => {
    const {base, repo} = await clone({'page.md': '# Page\n\nText.\n'})
    await writeFiles(base, {'outside/private.md': '# Private\n\nYours.\n'})
    const run = await kbsync(['plan', '../outside'], repo, {})
    expect(run.code, run.err).toBe(0)
  })
})

describe('the origin rule (src/trust/origins.ts)', () => {
  const origins = credentialOrigins(['http://127.0.0.1:8080/v4'], ['https://kb.example.com'])

  it.each([
    ['https://api.pyrus.com/v4', true],
    ['https://API.Pyrus.com:443/v4/', true],
    ['https://files.pyrus.com/services/kb?Id=1', true],
    ['http://127.0.0.1:8080/other', true],
    ['https://kb.example.com/v4', true],
    ['http://api.pyrus.com/v4', false],
    ['https://api.pyrus.com:8443/v4', false],
    ['https://api.pyrus.com.evil.example/v4', false],
    ['https://api.pyrus.com@evil.example/v4', false],
    ['https://evil.example/api.pyrus.com/v4', false],
    ['http://localhost:8080/v4', false],
    ['http://127.0.0.1:8081/v4', false],
    ['https://sub.kb.example.com', false],
    ['file:///etc/passwd', false],
    ['not a url', false]
  ])('%s may receive credentials: %s', (url, expected) => {
    expect(mayReceiveCredentials(url, origins)).toBe(expected)
  })

  it('an allow-list entry is a bare origin', () => {
    expect(parseOrigin('https://KB.example.com/')).toBe('https://kb.example.com')
    expect(parseOrigin('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080')
    for (const bad of [
      'https://kb.example.com/v4',
      'kb.example.com',
      'ftp://kb.example.com',
      'https://u:p@kb.example.com'
    ])
      expect(parseOrigin(bad)).toBeUndefined()
  })

  it('KBSYNC_TRUSTED_ORIGINS refuses an entry that is no bare origin (exit 2 through loadConfig)', async () => {
    const {repo} = await clone({})
    await expect(loadConfig({cwd: repo, env: {KBSYNC_TRUSTED_ORIGINS: 'https://kb.example.com/v4'}})).rejects.toThrow(
      /KBSYNC_TRUSTED_ORIGINS must be a list of origins/
    )
  })

  it("the client refuses a login answer's files_url on a foreign origin; nothing reaches it", async () => {
    const elsewhere = await recorder()
    const accounts = await recorder((url) =>
      url.endsWith('/auth') ? {access_token: TOKEN, files_url: `${elsewhere.url}/`} : {}
    )
    const client = new KbClient({apiUrl: `${accounts.url}/v4`, login: LOGIN, securityKey: SECURITY_KEY, retries: 1})
    try {
      const error = await client.getTree().catch((e: unknown) => e)
      expect(error).toMatchObject({name: 'AuthError', errorCode: 'untrusted_origin'})
      expect(String(error)).not.toContain(TOKEN)
    } finally {
      await client.close()
    }
    expect(elsewhere.seen).toEqual([])
  })
})

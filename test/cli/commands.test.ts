/**
 * `kbsync status` and the connection paths end to end (in-process CLI, real
 * client, real local server): every exit code, the status JSON schema,
 * annotations under GITHUB_ACTIONS=true, the embedded local knowledge base,
 * and no secret in any output.
 */
import {createServer, type Server as HttpServer} from 'node:http'
import {readFile, rm, writeFile} from 'node:fs/promises'
import type {AddressInfo} from 'node:net'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'
import type {StatusReport} from '../../src/cli/commands/status.js'
import {copyOf, run, tempDir, type Run} from './helpers.js'

let server: Awaited<ReturnType<typeof startServer>>
let client: KbClient
let env: NodeJS.ProcessEnv
let refusing: HttpServer
const made: string[] = []
const outputs: Run[] = []
const secret = 'tok-never-print-me-7f3a'

async function kbsync(argv: string[], options: {cwd?: string; env?: NodeJS.ProcessEnv} = {}): Promise<Run> {
  const result = await run(argv, {cwd: options.cwd ?? process.cwd(), env: options.env ?? env})
  outputs.push(result)
  return result
}

async function folder(fixture: string): Promise<string> {
  const dir = await copyOf(fixture)
  made.push(path.dirname(dir))
  return dir
}

beforeAll(async () => {
  server = await startServer({port: 0})
  client = new KbClient({apiUrl: server.apiUrl, filesUrl: server.filesUrl, token: server.token})
  env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: server.token}
  // An API that refuses every request: a runtime failure without retries.
  refusing = createServer((_req, res) => {
    res.writeHead(403, {'content-type': 'application/json'})
    res.end(JSON.stringify({error: 'access denied', error_code: 'access_denied_project'}))
  })
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve))
})

afterAll(async () => {
  await client?.close()
  await server?.close()
  await new Promise((resolve) => refusing?.close(resolve))
  for (const dir of made) await rm(dir, {recursive: true, force: true})
})

describe('kbsync status', () => {
  let dir: string
  let root: string

  beforeAll(async () => {
    dir = await folder('fixtures/handbook')
    root = (await client.createItem({type: 'topic', title: 'Status', parent_topic_id: null})).id
  })

  it('before the first sync: every file is a local addition (exit 0; 4 with --exit-code)', async () => {
    const result = await kbsync(['status', dir, '--root-topic', root, '--json'])
    expect(result.code).toBe(0)
    const report = JSON.parse(result.out) as StatusReport
    expect(report).toMatchObject({
      schemaVersion: 1,
      dir: expect.any(String),
      rootTopicId: root,
      synced: false,
      clean: false,
      remote: [],
      conflicts: []
    })
    expect(report.target).toContain('127.0.0.1')
    expect(report.local.length).toBeGreaterThan(10)
    expect(new Set(report.local.map((e) => e.change))).toEqual(new Set(['added', 'upload', 'permissions']))
    for (const entry of report.local)
      expect(Object.keys(entry)).toEqual(expect.arrayContaining(['change', 'type', 'path', 'title', 'reason']))
    expect((await kbsync(['status', dir, '--root-topic', root, '--exit-code'])).code).toBe(4)
  })

  it('after a push: clean, synced, exit 0 even with --exit-code; text says up to date', async () => {
    expect((await kbsync(['push', dir, '--root-topic', root])).code).toBe(0)
    const result = await kbsync(['status', dir, '--root-topic', root, '--exit-code'])
    expect(result.code).toBe(0)
    expect(result.out).toContain('Up to date')
    const report = JSON.parse((await kbsync(['status', dir, '--root-topic', root, '--json'])).out) as StatusReport
    expect(report).toMatchObject({synced: true, clean: true, local: [], remote: [], conflicts: []})
  })

  it('a local edit and a web edit show on their sides (exit 4 with --exit-code)', async () => {
    const welcome = path.join(dir, 'welcome.md')
    await writeFile(welcome, (await readFile(welcome, 'utf8')) + '\nOne more line.\n')
    const policies = (await client.getTree(root)).find((n) => n.title === 'Policies')
    const security = policies?.children?.find((n) => n.type === 'article')
    expect(security).toBeDefined()
    server.webEdit(security!.id, {body: 'Rewritten in the web editor.'})
    const result = await kbsync(['status', dir, '--root-topic', root, '--json', '--exit-code'])
    expect(result.code).toBe(4)
    const report = JSON.parse(result.out) as StatusReport
    expect(report.local).toEqual([expect.objectContaining({change: 'modified', path: 'welcome.md'})])
    expect(report.remote).toEqual([expect.objectContaining({change: 'edited', remoteId: security!.id})])
  })

  it('a conflict exits 3', async () => {
    const welcomeId = (await client.getTree(root)).find(
      (n) => n.type === 'article' && n.title.startsWith('Welcome')
    )!.id
    server.webEdit(welcomeId, {body: 'Also edited on the web.'})
    const result = await kbsync(['status', dir, '--root-topic', root, '--json'])
    expect(result.code).toBe(3)
    expect((JSON.parse(result.out) as StatusReport).conflicts).toEqual([
      expect.objectContaining({path: 'welcome.md', change: 'conflict'})
    ])
  })

  it('invalid input exits 2, with annotations under GITHUB_ACTIONS=true', async () => {
    const bad = await folder('fixtures/trees/invalid')
    const result = await kbsync(['status', bad], {
      env: {...env, GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: path.dirname(bad)}
    })
    expect(result.code).toBe(2)
    expect(result.err).toMatch(/bad-yaml\.md:\d+(:\d+)?: error: /)
    expect(result.out).toMatch(/^::error file=invalid\/bad-yaml\.md,line=\d+/m)
  })

  it('under GITHUB_ACTIONS=true, a failure without a file of its own is an annotation too', async () => {
    const dir = await folder('fixtures/trees/basic')
    const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/v4`
    const result = await kbsync(['push', dir], {
      env: {KBSYNC_API_URL: url, KBSYNC_TOKEN: secret, GITHUB_ACTIONS: 'true'}
    })
    expect(result.code).toBe(1)
    expect(result.out).toMatch(/^::error title=kbsync push::/m)
    expect(result.out + result.err).not.toContain(secret)
  })

  it('plan on invalid input exits 2 and says nothing was planned, not that nothing changed', async () => {
    const bad = await folder('fixtures/trees/invalid')
    const result = await kbsync(['plan', bad])
    expect(result.code).toBe(2)
    expect(result.out + result.err).toMatch(/Nothing planned: the folder has \d+ errors \(above\) to fix first\./)
    expect(result.out + result.err).not.toContain('No changes')
  })
})

describe('connections and exit codes', () => {
  it('a refusing API is a runtime failure: exit 1, the token not printed', async () => {
    const dir = await folder('fixtures/trees/basic')
    const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/v4`
    const result = await kbsync(['status', dir], {
      env: {KBSYNC_API_URL: url, KBSYNC_FILES_URL: url, KBSYNC_TOKEN: secret}
    })
    expect(result.code).toBe(1)
    expect(result.err).toContain('kbsync status:')
  })

  it('a folder that does not exist, a file, or two folders: exit 2, nothing created, embedded or not', async () => {
    const base = path.dirname(await folder('fixtures/trees/basic'))
    const missing = path.join(base, 'no-such-folder')
    const file = path.join(base, 'a-file.md')
    await writeFile(file, '# A\n\ntext\n')
    for (const environment of [env, {}]) {
      for (const command of ['plan', 'push', 'status']) {
        const gone = await kbsync([command, missing], {env: environment})
        expect([gone.code, gone.err]).toEqual([2, expect.stringContaining(`the folder ${missing} does not exist`)])
        const notFolder = await kbsync([command, file], {env: environment})
        expect([notFolder.code, notFolder.err]).toEqual([2, expect.stringContaining(`${file} is not a folder`)])
      }
      const two = await kbsync(['plan', base, base], {env: environment})
      expect([two.code, two.err]).toEqual([2, expect.stringContaining('expected at most one folder')])
    }
    await expect(readFile(path.join(missing, '.kbsync', 'local-kb.json'))).rejects.toThrow()
  })

  it('takes the folder from --dir, and pull may create a new one', async () => {
    const dir = await folder('fixtures/trees/basic')
    const planned = await kbsync(['plan', '--dir', dir, '--files-url', server.filesUrl])
    expect(planned.code, planned.err).toBe(0)
    expect(planned.out).toContain(`Plan for ${dir}`)
    const fresh = path.join(path.dirname(dir), 'pulled-here')
    const pulled = await kbsync(['pull', fresh])
    expect(pulled.code, pulled.err).toBe(0)
    expect((await readFile(path.join(fresh, '.kbsync', 'state.json'), 'utf8')).length).toBeGreaterThan(0)
  })

  it('a root topic the knowledge base does not have is a configuration error: exit 2, named', async () => {
    const dir = await folder('fixtures/trees/basic')
    for (const command of ['plan', 'push', 'pull']) {
      const result = await kbsync([command, dir, '--root-topic', 'NOPE0000000'])
      expect([result.code, result.err]).toEqual([
        2,
        expect.stringContaining('the root topic NOPE0000000 is not in the knowledge base')
      ])
    }
  })

  it('an API URL without credentials exits 2 naming KBSYNC_TOKEN', async () => {
    const dir = await folder('fixtures/trees/basic')
    const result = await kbsync(['status', dir], {env: {KBSYNC_API_URL: server.apiUrl}})
    expect(result.code).toBe(2)
    expect(result.err).toContain('KBSYNC_TOKEN')
  })

  it('without an API URL: the embedded local knowledge base, kept between runs in .kbsync/local-kb.json', async () => {
    const dir = await folder('fixtures/trees/basic')
    const first = await kbsync(['status', dir, '--exit-code'], {env: {}})
    expect(first.code).toBe(4)
    expect(first.out).toContain('embedded local knowledge base at')
    expect((await kbsync(['push', dir], {env: {}})).code).toBe(0)
    const again = await kbsync(['status', dir, '--exit-code'], {env: {}})
    expect(again.out).toContain('Up to date')
    expect(again.code).toBe(0)
    expect((await readFile(path.join(dir, '.kbsync', 'local-kb.json'), 'utf8')).length).toBeGreaterThan(100)
  })

  it('a config file in a parent folder is found; its bad value exits 2 naming the key', async () => {
    const cwd = await tempDir()
    made.push(cwd)
    await writeFile(path.join(cwd, 'kbsync.config.json'), JSON.stringify({maxDeletions: -1}))
    const result = await kbsync(['status'], {cwd, env: {}})
    expect(result.code).toBe(2)
    expect(result.err).toContain('"maxDeletions"')
  })

  it('no secret reached any output of this suite', () => {
    const all = outputs.map((o) => o.out + o.err).join('\n')
    expect(all).not.toContain(secret)
    expect(all).not.toContain(String(server.token))
  })
})

/**
 * `.kbsync/` is a cache, never an authority (issue 28, finding 3). A cloned
 * repository may carry any file there: a server record naming a server of
 * the attacker's, a state mapping files to other teams' items, a body cache
 * whose facts differ from the source, links out of the folder. End to end
 * through the built CLI: none of them sends an article elsewhere, touches an
 * item outside the folder's root topic, changes what is published, or is
 * read through a link out of the folder.
 */
import {createServer, type IncomingMessage, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {mkdir, readFile, realpath, rm, symlink, writeFile} from 'node:fs/promises'
import {networkInterfaces} from 'node:os'
import {existsSync} from 'node:fs'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {runCli} from '../reliability/helpers.js'
import {embeddedEnv, startCli, storedItems} from '../cli/embedded-processes.js'
import {useLocalServer} from '../e2e/local-server.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

const folders = temporaryFolders('kbsync-folder')
let cacheHome = ''
beforeAll(async () => {
  cacheHome = await folders.make()
})
afterAll(() => folders.removeAll())

/** The environment of a CLI run on the embedded knowledge base, with a cache folder of the test's own. */
function embedded(): NodeJS.ProcessEnv {
  return {...embeddedEnv(), XDG_CACHE_HOME: cacheHome}
}

/** A loopback HTTP server that looks like kbsync to a probe and records every request it gets. */
async function recordingServer(host = '127.0.0.1'): Promise<{server: Server; url: string; requests: string[]}> {
  const requests: string[] = []
  const server = createServer((request: IncomingMessage, response) => {
    requests.push(`${request.method} ${request.url}`)
    request.resume()
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify({items: []}))
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const {port} = server.address() as AddressInfo
  return {server, url: `http://127.0.0.1:${port}`, requests}
}

const dataOf = (dir: string) => path.join(dir, '.kbsync', 'local-kb.json')

describe('the embedded server record (.kbsync/local-kb.json.lock)', () => {
  it('a planted record naming a live kbsync-like server on loopback gets no request: the push goes to a real embedded server', async () => {
    const rogue = await recordingServer()
    try {
      const dir = await folders.make()
      await writeFiles(dir, {'a.md': '# A\n\nThe team’s private text.\n'})
      await mkdir(path.join(dir, '.kbsync'))
      // The test runner's pid is alive; the record names the rogue server as its owner's.
      const planted = {
        pid: process.pid,
        nonce: 'planted',
        command: 'watch',
        apiUrl: `${rogue.url}/v4`,
        filesUrl: rogue.url,
        token: 't'
      }
      await writeFile(`${dataOf(dir)}.lock`, JSON.stringify(planted))
      const push = await runCli(['push', dir], embedded())
      expect(push.err).toBe('')
      expect(push.code).toBe(0)
      expect(push.out).toContain('embedded local knowledge base')
      expect(push.out).not.toContain('served by kbsync process')
      expect(rogue.requests).toEqual([])
      const items = await storedItems(dataOf(dir))
      expect(items.map((item) => item.title)).toEqual(['A'])
      expect(existsSync(`${dataOf(dir)}.lock`)).toBe(false)
    } finally {
      rogue.server.close()
    }
  })
})

describe('the embedded server record, sealed by this user but off loopback', () => {
  it('a record naming a non-loopback address is not used, even with a valid seal: the push goes to a real embedded server', async () => {
    const rogue = await recordingServer('0.0.0.0')
    try {
      const host = Object.values(networkInterfaces())
        .flat()
        .find((address) => address && address.family === 'IPv4' && !address.internal)?.address
      if (host === undefined) return
      const port = (rogue.server.address() as AddressInfo).port
      const dir = await folders.make()
      await writeFiles(dir, {'a.md': '# A\n\nText.\n'})
      await mkdir(path.join(dir, '.kbsync'))
      // Sealed with the key of the test's own user cache folder (as if this user's kbsync had written it elsewhere).
      expect((await runCli(['plan', dir], embedded())).code).toBe(0)
      const {sealOwnerRecord} = await import('../../src/trust/index.js')
      const key = Buffer.from((await readFile(path.join(cacheHome, 'kbsync', 'secret'), 'utf8')).trim(), 'hex')
      const url = `http://${host}:${port}`
      const record = sealOwnerRecord(
        {pid: process.pid, nonce: 'copied', command: 'watch', apiUrl: `${url}/v4`, filesUrl: url, token: 't'},
        path.join(await realpath(path.join(dir, '.kbsync')), 'local-kb.json'),
        {key, persistent: true, where: 'test'}
      )
      await writeFile(`${dataOf(dir)}.lock`, JSON.stringify(record))
      const push = await runCli(['push', dir], embedded())
      expect(push.err).toBe('')
      expect(push.code).toBe(0)
      expect(rogue.requests).toEqual([])
      expect((await storedItems(dataOf(dir))).map((item) => item.title)).toEqual(['A'])
    } finally {
      rogue.server.close()
    }
  })
})

describe('kbsync init', () => {
  it('writes the rule that keeps the embedded knowledge base (local-kb.json*) out of git', async () => {
    const cwd = await folders.make()
    await mkdir(path.join(cwd, 'docs'))
    const run = await runInit(cwd)
    expect(run.code).toBe(0)
    const rules = await readFile(path.join(cwd, 'docs', '.kbsync', '.gitignore'), 'utf8')
    expect(rules.split('\n')).toContain('local-kb.json*')
  })
})

/** `kbsync init` run in `cwd` (the built CLI, as a child process). */
async function runInit(cwd: string) {
  const p = startCli(['init'], cwd)
  const code = await p.exited
  return {code, out: p.out(), err: p.err()}
}

const local = useLocalServer()

describe('the body cache (.kbsync/body-cache.json)', () => {
  it('a planted entry does not change the published body', async () => {
    const dir = await folders.make()
    await writeFiles(dir, {
      'a.md': '# A\n\nOur logo: ![logo](logo.png)\n',
      'logo.png': 'LOGO-BYTES',
      'b.md': '# B\n\nB.\n'
    })
    await mkdir(path.join(dir, 'private'))
    await writeFile(path.join(dir, 'private', 'secret.png'), 'SECRET-BYTES')
    const env = {...local.env, XDG_CACHE_HOME: cacheHome}
    // A first scan writes the cache (a dry run publishes nothing); the attacker rewrites what it says of a.md.
    expect((await runCli(['push', dir, '--dry-run'], env)).code).toBe(0)
    const file = path.join(dir, '.kbsync', 'body-cache.json')
    const cache = JSON.parse(await readFile(file, 'utf8')) as {bodies: Record<string, {refs: Array<{url: string}>}>}
    const lies = Object.values(cache.bodies).filter((facts) => facts.refs.some((ref) => ref.url === 'logo.png'))
    expect(lies).toHaveLength(1)
    for (const ref of lies[0]!.refs) ref.url = 'private/secret.png'
    await writeFile(file, JSON.stringify(cache))

    const push = await runCli(['push', dir], env)
    expect(push.code).toBe(0)
    const tree = await local.client.getTree(null)
    const a = tree.find((node) => node.title === 'A')!
    const item = await local.client.getItem(a.id)
    expect((item.attachments ?? []).map((attachment) => attachment.name)).toEqual(['logo.png'])
  })
})

/** Two topics of one knowledge base: ours (the folder's root topic, holding \`a.md\`'s article) and theirs (another team's article). */
async function twoTeams(files: Record<string, string>) {
  const ours = await local.client.createItem({type: 'topic', title: `Ours ${Math.random()}`, parent_topic_id: null})
  const theirs = await local.client.createItem({type: 'topic', title: `Theirs ${Math.random()}`, parent_topic_id: null})
  const victim = await local.client.createItem({
    type: 'article',
    title: 'Their article',
    parent_topic_id: theirs.id,
    body: 'Their text.'
  })
  const dir = await folders.make()
  await writeFiles(dir, files)
  const env = {...local.env, XDG_CACHE_HOME: cacheHome}
  const first = await runCli(['push', dir, '--root-topic', ours.id], env)
  expect(first.code).toBe(0)
  return {ours, theirs, victim, dir, env}
}

/** Rewrites the folder's state with \`change\` (its journal left out: the file alone is what a repository carries). */
async function plantState(dir: string, change: (items: Record<string, Record<string, unknown>>) => void) {
  const file = path.join(dir, '.kbsync', 'state.json')
  const state = JSON.parse(await readFile(file, 'utf8')) as {
    items: Record<string, Record<string, unknown>>
    journal?: string
  }
  change(state.items)
  delete state.journal
  await writeFile(file, JSON.stringify(state, null, 2))
}

describe('the sync state (.kbsync/state.json)', () => {
  it("a planted entry mapping a vanished file to another topic's article: push --prune leaves it, and warns", async () => {
    const {ours, theirs, victim, dir, env} = await twoTeams({'a.md': '# A\n\nMine.\n', 'b.md': '# B\n\nMine too.\n'})
    await plantState(dir, (items) => {
      items['gone.md'] = {id: victim.id, type: 'article', title: 'Gone', parentId: theirs.id}
    })
    const push = await runCli(['push', dir, '--root-topic', ours.id, '--prune', '--yes'], env)
    expect(push.code).toBe(0)
    expect(push.out + push.err).toMatch(/1 entry names an item outside the root topic/)
    expect(push.out + push.err).toContain('gone.md')
    const after = await local.client.getItem(victim.id)
    expect(after.parent_topic_id).toBe(theirs.id)
    expect(after.body).toContain('Their text.')
  })

  it("a planted entry mapping an existing file to another topic's article: that article is not updated or moved", async () => {
    const {ours, theirs, victim, dir, env} = await twoTeams({'a.md': '# A\n\nMine.\n'})
    await writeFile(path.join(dir, 'a.md'), '# Their article\n\nOverwritten by the other team.\n')
    await plantState(dir, (items) => {
      items['a.md'] = {...items['a.md'], id: victim.id, parentId: theirs.id}
    })
    const push = await runCli(['push', dir, '--root-topic', ours.id], env)
    expect(push.code).toBe(0)
    expect(push.out + push.err).toMatch(/1 entry names an item outside the root topic/)
    const after = await local.client.getItem(victim.id)
    expect(after.parent_topic_id).toBe(theirs.id)
    expect(after.body).toContain('Their text.')
    expect(after.body).not.toContain('Overwritten')
  })
})

describe('links out of the folder in .kbsync/ are not read through', () => {
  it('a symlinked .kbsync/state.json is refused with a message naming it (exit 2), for plan and push', async () => {
    const {ours, dir, env} = await twoTeams({'a.md': '# A\n\nMine.\n'})
    const outside = await folders.make()
    const file = path.join(dir, '.kbsync', 'state.json')
    // The user's own state of another folder (or any file): the repository links to it.
    await writeFile(path.join(outside, 'state.json'), await readFile(file, 'utf8'))
    const before = await readFile(path.join(outside, 'state.json'), 'utf8')
    await rm(file)
    await symlink(path.join(outside, 'state.json'), file)
    for (const command of ['plan', 'push']) {
      const run = await runCli([command, dir, '--root-topic', ours.id], env)
      expect(run.code).toBe(2)
      expect(run.err).toMatch(/\.kbsync\/state\.json leads to .*outside/)
      expect(run.err).toContain('remove it')
    }
    expect(await readFile(path.join(outside, 'state.json'), 'utf8')).toBe(before)
  })

  it('a symlinked log of the embedded knowledge base (.kbsync/local-kb.json.log) is refused, the file it names untouched', async () => {
    const dir = await folders.make()
    const outside = await folders.make()
    await writeFiles(dir, {'a.md': '# A\n\nText.\n'})
    await mkdir(path.join(dir, '.kbsync'))
    await writeFile(path.join(outside, 'notes.txt'), "The user's own notes, not ending in a newline")
    await symlink(path.join(outside, 'notes.txt'), `${dataOf(dir)}.log`)
    const push = await runCli(['push', dir], embedded())
    expect(push.code).toBe(2)
    expect(push.err).toMatch(/local-kb\.json\.log is a symbolic link to .*outside the folder/)
    expect(await readFile(path.join(outside, 'notes.txt'), 'utf8')).toBe(
      "The user's own notes, not ending in a newline"
    )
  })
})

/**
 * Issue 29: the sync state belongs to one knowledge base. One folder is
 * pushed, through the built CLI, to the embedded knowledge base (the
 * README's first step), then to a remote, then to another remote, then back
 * to the first: each gets every image uploaded to it, no body on any of
 * them holds another one's URL, and the return writes nothing. A pull from
 * a second target into a folder pushed to the first mixes no ids; a URL of
 * another knowledge base written in a file is refused before any write.
 */
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'
import {copyFixture} from '../e2e/push-helpers.js'
import {runCli} from './helpers.js'

type Server = Awaited<ReturnType<typeof startServer>>
const servers: Server[] = []
const clients: KbClient[] = []

afterAll(async () => {
  for (const client of clients) await client.close()
  for (const server of servers) await server.close()
})

/** A remote knowledge base of the test: a local server on its own port, and the CLI's environment for it. */
async function remote(): Promise<{server: Server; env: NodeJS.ProcessEnv; client: KbClient}> {
  const server = await startServer({port: 0})
  servers.push(server)
  const env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: server.token}
  const client = KbClient.fromEnv(env)
  clients.push(client)
  return {server, env, client}
}

/** The embedded knowledge base's environment: no API URL (and no credential). */
const embeddedEnv: NodeJS.ProcessEnv = {KBSYNC_API_URL: '', KBSYNC_TOKEN: '', KBSYNC_FILES_URL: ''}

interface PushOutcome {
  status: string
  writes: number
  uploads: number
}

/** `kbsync push DIR --json` to the knowledge base of `env`; exit 0 expected. */
async function pushTo(dir: string, env: NodeJS.ProcessEnv): Promise<PushOutcome> {
  const run = await runCli(['push', dir, '--json'], env)
  expect(run.code, run.err + run.out).toBe(0)
  const result = JSON.parse(run.out) as {status: string; writes: number; done: Array<{op: string}>}
  return {status: result.status, writes: result.writes, uploads: result.done.filter((op) => op.op === 'upload').length}
}

/**
 * What a knowledge base holds, read through its API: every body's download
 * URLs, and the files its articles list (the server lists only files it
 * has: a URL of another server's file is not among them).
 */
async function holdings(client: KbClient, filesUrl: string) {
  const ids: string[] = []
  const walk = (nodes: Awaited<ReturnType<KbClient['getTree']>>) => {
    for (const node of nodes) {
      ids.push(node.id)
      walk(node.children ?? [])
    }
  }
  walk(await client.getTree(null))
  const urls: string[] = []
  const files = new Set<string>()
  for (const id of ids) {
    const item = await client.getItem(id)
    urls.push(...Array.from((item.body ?? '').matchAll(/https?:\/\/[^\s)"'<>]+/g), (m) => m[0]))
    for (const file of item.attachments ?? []) files.add(file.id)
  }
  const downloads = urls.filter((url) => url.includes('/services/kb?Id='))
  return {
    ids,
    urls,
    downloads,
    files,
    foreign: downloads.filter((url) => !url.startsWith(`${filesUrl}/services/kb?Id=`))
  }
}

/** The embedded knowledge base of `dir`, opened on its data file (the CLI that served it has exited). */
async function embeddedOf(dir: string) {
  const server = await startServer({port: 0, dataPath: path.join(dir, '.kbsync', 'local-kb.json')})
  const client = KbClient.fromEnv({
    KBSYNC_API_URL: server.apiUrl,
    KBSYNC_FILES_URL: server.filesUrl,
    KBSYNC_TOKEN: server.token
  })
  try {
    return await holdings(client, server.filesUrl)
  } finally {
    await client.close()
    await server.close()
  }
}

interface Part {
  target?: {key: string}
  items: Record<string, {id?: string}>
}
type State = Part & {others?: Record<string, Part>}

/** The part of the state file that names the API URL `apiUrl` (the top level or one of `others`). */
function partOf(state: State, apiUrl: string): Part | undefined {
  return [state, ...Object.values(state.others ?? {})].find((part) => part.target?.key.startsWith(`${apiUrl}#`))
}

function idsOf(part: Part | undefined): string[] {
  return Object.values(part?.items ?? {}).flatMap((entry) => (entry.id ? [entry.id] : []))
}

async function stateOf(dir: string): Promise<State> {
  return JSON.parse(await readFile(path.join(dir, '.kbsync', 'state.json'), 'utf8')) as State
}

describe('the state per target (issue 29)', () => {
  let dir = ''
  let first: Awaited<ReturnType<typeof remote>>
  let second: Awaited<ReturnType<typeof remote>>
  let images = 0

  beforeAll(async () => {
    dir = await copyFixture('fixtures/trees/basic')
    first = await remote()
    second = await remote()
  })

  it('embedded, then a remote, then another: every file uploaded to each, no body holds another server URL', async () => {
    const embedded = await pushTo(dir, embeddedEnv)
    expect(embedded.status).toBe('ok')
    images = embedded.uploads
    expect(images).toBeGreaterThanOrEqual(2)
    const local = await embeddedOf(dir)
    expect(local.files.size).toBe(images)
    expect(local.foreign).toEqual([])

    for (const target of [first, second]) {
      const pushed = await pushTo(dir, target.env)
      expect(pushed.status).toBe('ok')
      expect(pushed.uploads).toBe(images)
      expect(target.server.counts().upload).toBe(images)
      const held = await holdings(target.client, target.server.filesUrl)
      expect(held.files.size).toBe(images)
      expect(held.downloads.length).toBeGreaterThanOrEqual(images)
      expect(held.foreign).toEqual([])
      // No address of another knowledge base at all: not the other remotes', not a loopback port of the embedded one.
      const others = [first, second].filter((t) => t !== target).map((t) => t.server.filesUrl)
      expect(held.urls.filter((url) => others.some((o) => url.startsWith(o)))).toEqual([])
    }
    const state = await stateOf(dir)
    expect(Object.keys(state.others ?? {})).toHaveLength(2)
  }, 120_000)

  it('back to each target known before: nothing uploaded, nothing written', async () => {
    for (const target of [first, second]) target.server.resetLog()
    for (const [env, server] of [
      [embeddedEnv, undefined],
      [first.env, first.server],
      [second.env, second.server]
    ] as const) {
      const again = await pushTo(dir, env)
      expect(again).toEqual({status: 'ok', writes: 0, uploads: 0})
      if (server) expect(server.counts().writes).toBe(0)
    }
    const local = await embeddedOf(dir)
    expect(local.files.size).toBe(images)
    expect(local.foreign).toEqual([])
  }, 120_000)

  it('plan and status name the target the state describes', async () => {
    const plan = await runCli(['plan', dir], first.env)
    expect(plan.code, plan.err).toBe(0)
    expect(plan.out).toContain(`target: ${first.server.apiUrl} (knowledge-base root)`)
    const json = JSON.parse((await runCli(['plan', dir, '--json'], second.env)).out) as {
      target: {label: string; known: boolean}
    }
    expect(json.target).toMatchObject({label: `${second.server.apiUrl} (knowledge-base root)`, known: true})
    const status = await runCli(['status', dir], embeddedEnv)
    expect(status.out).toContain('target: embedded local knowledge base (.kbsync/local-kb.json) (knowledge-base root)')
    const fresh = await remote()
    const unknown = await runCli(['status', dir], fresh.env)
    expect(unknown.out).toMatch(/target: .* a first sync there/)
    expect(unknown.out).toContain('(never synced)')
  }, 60_000)

  it('a pull from a second target into a folder pushed to the first mixes no ids', async () => {
    // The second target holds the same tree (pushed from elsewhere); the folder was pushed to the first only.
    await pushTo(await copyFixture('fixtures/trees/basic'), second.env)
    const folder = await copyFixture('fixtures/trees/basic')
    await pushTo(folder, first.env)
    const pushedIds = idsOf(partOf(await stateOf(folder), first.server.apiUrl))
    expect(pushedIds.length).toBeGreaterThan(0)
    const pulled = await runCli(['pull', folder], second.env)
    expect(pulled.code, pulled.err + pulled.out).toBe(0)
    const state = await stateOf(folder)
    const secondIds = new Set((await holdings(second.client, second.server.filesUrl)).ids)
    const firstIds = new Set((await holdings(first.client, first.server.filesUrl)).ids)
    const pulledIds = idsOf(partOf(state, second.server.apiUrl))
    expect(pulledIds.length).toBeGreaterThan(0)
    for (const id of pulledIds) expect(secondIds.has(id)).toBe(true)
    // The first target's part is what the push recorded, all of them the first's ids.
    expect(idsOf(partOf(state, first.server.apiUrl))).toEqual(pushedIds)
    for (const id of pushedIds) expect(firstIds.has(id)).toBe(true)
    // The pulled files hold no address of either server: file URLs became relative paths.
    const welcome = await readFile(path.join(folder, 'welcome.md'), 'utf8')
    expect(welcome).not.toContain(second.server.filesUrl)
    expect(welcome).not.toContain(first.server.filesUrl)
    // Back to the first: nothing uploaded, nothing written.
    first.server.resetLog()
    expect(await pushTo(folder, first.env)).toEqual({status: 'ok', writes: 0, uploads: 0})
  }, 120_000)

  it('a URL of another knowledge base written in a file is refused with its file and line, nothing written', async () => {
    const folder = await copyFixture('fixtures/trees/basic')
    await pushTo(folder, first.env)
    const [download] = (await holdings(first.client, first.server.filesUrl)).downloads
    const welcome = path.join(folder, 'welcome.md')
    await writeFile(welcome, (await readFile(welcome, 'utf8')) + `\n![copied](${download})\n`)
    second.server.resetLog()
    const refused = await runCli(['push', folder], second.env)
    expect(refused.code).toBe(2)
    expect(refused.err + refused.out).toMatch(/welcome\.md:\d+/)
    expect(refused.err + refused.out).toContain(download)
    expect(second.server.counts().writes).toBe(0)
  }, 120_000)
})

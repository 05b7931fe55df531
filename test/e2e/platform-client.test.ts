/**
 * Issue 18, the client against the real platform's habits, end to end: the
 * CLI and the real client against the local server with its opt-in habits
 * (dropped connections in bursts, `/auth` 500 without `person_id`, 500 on a
 * fence inside a fence), and a proxy that refuses chosen writes.
 */
import {mkdir, readdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {startFaultProxy} from '../../bench/fault-proxy.js'
import {generateTree} from '../../bench/tree.js'
import {KbClient} from '../../src/api/index.js'
import {startServer, type RunningServer} from '../../src/server/index.js'
import {temporaryFolders} from '../temp-folders.js'
import {cli} from './push-helpers.js'

const servers: RunningServer[] = []
const closers: Array<() => Promise<void>> = []
const temporary = temporaryFolders('platform-client')

afterAll(async () => {
  for (const close of closers) await close()
  for (const server of servers) await server.close()
  await temporary.removeAll()
})

async function serve(options: Parameters<typeof startServer>[0]): Promise<RunningServer> {
  const server = await startServer({port: 0, ...options})
  servers.push(server)
  return server
}

const tokenEnv = (server: RunningServer, apiUrl = server.apiUrl, filesUrl = server.filesUrl): NodeJS.ProcessEnv => ({
  KBSYNC_API_URL: apiUrl,
  KBSYNC_FILES_URL: filesUrl,
  KBSYNC_TOKEN: server.token
})

/**
 * The remote tree as comparable text: one line per item, its title path,
 * type and body, ids and file guids replaced by the title path they stand
 * for (they differ between servers). Sorted: creation order may differ.
 */
function remoteTree(server: RunningServer): string[] {
  const items = server.items()
  const byId = new Map(items.map((item) => [item.id, item]))
  const titlePath = (id: string | null | undefined): string => {
    const item = id ? byId.get(id) : undefined
    return item ? `${titlePath(item.parent_topic_id)}/${item.title}` : ''
  }
  return items
    .map((item) => {
      let body = item.body ?? ''
      for (const other of items) body = body.split(other.id).join(`<${titlePath(other.id)}>`)
      body = body
        .replace(/https?:\/\/127\.0\.0\.1:\d+/g, '<server>')
        .replace(/[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}/gi, '<file>')
      return `${titlePath(item.id)} (${item.type}): ${JSON.stringify(body)}`
    })
    .sort()
}

/** A folder with an article whose code block shows a Markdown fence (line 6 of the file is the inner fence). */
async function fenceFolder(): Promise<string> {
  const dir = await temporary.make()
  await mkdir(path.join(dir, 'guides'))
  await writeFile(
    path.join(dir, 'guides', 'fences.md'),
    '# Fences\n\nShow the reader a fence:\n\n````markdown\n```sh\nnpm install kbsync\n```\n````\n'
  )
  await writeFile(path.join(dir, 'plain.md'), '# Plain\n\nNothing special.\n')
  return dir
}

describe('a push under burst-dropped connections', () => {
  it('equals the fault-free push: same remote tree, no duplicate, no failure', async () => {
    const clean = await serve({latencyMs: 2})
    const cleanDir = await temporary.make()
    await generateTree(cleanDir, 60, {perTopic: 10, imageEvery: 8})
    const fine = await cli(['push', cleanDir], tokenEnv(clean))
    expect(fine.code, fine.err).toBe(0)

    // More than 25 requests within a second loses connections, dropped ones counted: the platform's bursts.
    // A client that keeps its pace (eight at a time, the next sent as soon as one is dropped) fails here.
    const dropping = await serve({latencyMs: 2, platformHabits: {dropOver: 25}})
    const dir = await temporary.make()
    await generateTree(dir, 60, {perTopic: 10, imageEvery: 8})
    const pushed = await cli(['push', dir], tokenEnv(dropping))
    expect(pushed.code, pushed.err + pushed.out).toBe(0)
    expect(dropping.requestLog().filter((entry) => entry.faulted === 'drop-burst').length).toBeGreaterThan(0)
    expect(remoteTree(dropping)).toEqual(remoteTree(clean))
  }, 120_000)

  it('with answers lost after the write too (runs of creates applied, their answers dropped): no duplicate create', async () => {
    const server = await serve({})
    let seen = 0
    const proxy = await startFaultProxy(server.filesUrl, (request) => {
      // Every eighth create loses its answer after the server applied it, in runs of two.
      if (request.method !== 'POST' || !request.url.endsWith('/knowledgebase')) return 'pass'
      return seen++ % 8 < 2 ? 'drop-after' : 'pass'
    })
    closers.push(proxy.close)
    const dir = await temporary.make()
    await generateTree(dir, 24, {perTopic: 8})
    const pushed = await cli(['push', dir], tokenEnv(server, `${proxy.origin}/v4`, proxy.origin))
    expect(pushed.code, pushed.err + pushed.out).toBe(0)
    expect(proxy.counts['drop-after']).toBeGreaterThan(3)
    const titles = server.items().map((item) => `${item.parent_topic_id}/${item.title}`)
    expect(new Set(titles).size).toBe(titles.length)
    expect(server.items()).toHaveLength(24 + 3)
  }, 60_000)
})

describe('logging in to a login of several organisations', () => {
  it('an /auth 500 prints the person_id hint within one retry; with KBSYNC_PERSON_ID the push goes through', async () => {
    const server = await serve({platformHabits: {loginPersonIds: [1, 7]}})
    const dir = await fenceFolder()
    const env = {
      KBSYNC_API_URL: server.apiUrl,
      KBSYNC_FILES_URL: server.filesUrl,
      KBSYNC_LOGIN: 'local',
      KBSYNC_SECURITY_KEY: 'local-key'
    }
    const started = Date.now()
    const failed = await cli(['push', dir], env)
    expect(failed.code).toBe(1)
    expect(failed.err).toMatch(/500 server_error.*again after a retry.*set KBSYNC_PERSON_ID/s)
    expect(failed.err).not.toContain('local-key')
    expect(server.requestLog().filter((entry) => entry.path.endsWith('/auth'))).toHaveLength(2)
    expect(Date.now() - started).toBeLessThan(3000)

    const wrong = await cli(['push', dir], {...env, KBSYNC_PERSON_ID: '9'})
    expect(wrong.code).toBe(1)
    expect(wrong.err).toMatch(/KBSYNC_LOGIN, KBSYNC_SECURITY_KEY and KBSYNC_PERSON_ID were refused/)
    expect(wrong.err).not.toMatch(/local-key|\b9\b/)

    const right = await cli(['push', dir], {...env, KBSYNC_PERSON_ID: '7'})
    expect(right.code, right.err).toBe(0)
  })
})

describe('a code block holding a fence', () => {
  it('is warned at plan time with file and line, and the push is accepted by a server that answers 500 to a fence inside a fence', async () => {
    const server = await serve({platformHabits: true})
    const dir = await fenceFolder()
    const plan = await cli(['plan', dir], tokenEnv(server))
    expect(plan.code, plan.err).toBe(0)
    expect(plan.out + plan.err).toMatch(/guides\/fences\.md:6:1.*kb-nested-fence|kb-nested-fence.*guides\/fences\.md:6/)
    expect(plan.out + plan.err).toMatch(/500/)

    const pushed = await cli(['push', dir], tokenEnv(server))
    expect(pushed.code, pushed.err + pushed.out).toBe(0)
    const stored = server.items().find((item) => item.title === 'Fences')!
    expect(stored.body).toContain('```markdown\n\u200B```sh\nnpm install kbsync\n\u200B```\n```')

    // Pulled elsewhere, the file holds the code as written (no guard), and pushing it back writes nothing.
    const elsewhere = await temporary.make()
    const pulled = await cli(['pull', elsewhere], tokenEnv(server))
    expect(pulled.code, pulled.err).toBe(0)
    const names = (await readdir(elsewhere, {recursive: true})).filter((name) => name.endsWith('.md'))
    const texts = await Promise.all(names.map((name) => readFile(path.join(elsewhere, name), 'utf8')))
    const file = texts.find((text) => text.includes('npm install kbsync'))!
    expect(file).toContain('````markdown\n```sh\nnpm install kbsync\n```\n````')
    expect(file).not.toContain('\u200B')
    const before = server.counts().writes
    const again = await cli(['push', elsewhere], tokenEnv(server))
    expect(again.code, again.err).toBe(0)
    expect(server.counts().writes - before).toBe(0)
  })

  it('a write answered 500 is retried once, then reported with the file and the likely cause', async () => {
    const server = await serve({})
    // A platform stricter than the local habit: it refuses the guarded fence too.
    const proxy = await startFaultProxy(server.filesUrl, (request) =>
      request.method === 'POST' && request.body.includes('\u200B```')
        ? {status: 500, json: {error_code: 'server_error', error: 'Internal server error'}}
        : 'pass'
    )
    closers.push(proxy.close)
    const dir = await fenceFolder()
    const pushed = await cli(['push', dir], tokenEnv(server, `${proxy.origin}/v4`, proxy.origin))
    expect(pushed.code).toBe(1)
    const report = pushed.out + pushed.err
    expect(report).toMatch(
      /guides\/fences\.md.*POST \/knowledgebase failed: 500 server_error.*again after a retry.*saved nothing.*line 4 of the body sent starts a fence/
    )
    expect(report).not.toMatch(/network/i)
    expect(proxy.counts.answered).toBe(2)
    // The rest of the folder went through.
    expect(server.items().map((item) => item.title)).toContain('Plain')
  })
})

describe('the client alone', () => {
  it('a nested-fence body the local habit refuses: two attempts, then the line named', async () => {
    const server = await serve({platformHabits: true})
    const client = new KbClient({apiUrl: server.apiUrl, token: server.token, retryBaseMs: 5})
    closers.push(() => client.close())
    await expect(
      client.createItem({type: 'article', title: 'Raw', body: 'Intro\n\n````md\n```js\nx\n```\n````\n'})
    ).rejects.toThrow(/again after a retry.*line 4 of the body sent starts a fence.*cannot read/)
    expect(server.requestLog().filter((entry) => entry.method === 'POST')).toHaveLength(2)
    expect(server.items()).toEqual([])
  })
})

/**
 * The sync engine against the server's platform-like answers, through the
 * real CLI: ids that mix upper and lower case (push, pull, links, `kb_id`,
 * state all keep their case), and a topic body the platform will not empty
 * (the engine keeps it and says so, and the server refuses it if asked).
 */
import {mkdir, readFile, readdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {startServer, type RunningServer} from '../../src/server/index.js'
import {bodyOf, cli, flatten} from '../e2e/push-helpers.js'
import {temporaryFolders} from '../temp-folders.js'

let server: RunningServer
let client: KbClient
let env: NodeJS.ProcessEnv
const temporary = temporaryFolders('platform-ids')

beforeAll(async () => {
  server = await startServer({port: 0, seed: 18})
  env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: server.token}
  client = KbClient.fromEnv(env)
})

afterAll(async () => {
  await client?.close()
  await server?.close()
  await temporary.removeAll()
})

/** A new root topic for one test. */
const rootTopic = async (title: string) => (await client.createItem({type: 'topic', title, parent_topic_id: null})).id

/** The `.md` files under `dir`, relative, sorted. */
async function markdownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, {recursive: true})
  return entries.filter((name) => name.endsWith('.md')).sort()
}

describe('the engine on mixed-case ids', () => {
  it('pushes, pulls with kb_id and links, and pushes the pulled folder with nothing to do', async () => {
    const root = await rootTopic('Ids')
    const dir = await temporary.make()
    await mkdir(path.join(dir, 'guides'))
    await writeFile(path.join(dir, 'guides', '_index.md'), '---\ntitle: Guides\n---\nAll the guides.\n')
    await writeFile(path.join(dir, 'guides', 'setup.md'), '# Setup\n\nFirst read [the welcome](../welcome.md).\n')
    await writeFile(
      path.join(dir, 'welcome.md'),
      '# Welcome\n\nThen [set up](guides/setup.md) in [the guides](guides/).\n'
    )
    const pushed = await cli(['push', dir, '--root-topic', root], env)
    expect(pushed.code, pushed.err).toBe(0)
    const entries = flatten(await client.getTree(root))
    expect(entries.map((e) => e.titlePath).sort()).toEqual(['Guides', 'Guides / Setup', 'Welcome'])
    // The test means something only if the ids do mix case.
    expect(entries.some((e) => /[a-z]/.test(e.id) && /[A-Z]/.test(e.id))).toBe(true)
    const setup = entries.find((e) => e.titlePath === 'Guides / Setup')!
    const welcome = entries.find((e) => e.titlePath === 'Welcome')!
    expect(bodyOf(await client.getItem(welcome.id))).toContain(`data-article-id="${setup.id}"`)

    const elsewhere = await temporary.make()
    const pulled = await cli(['pull', elsewhere, '--root-topic', root], env)
    expect(pulled.code, pulled.err).toBe(0)
    const files = await markdownFiles(elsewhere)
    const texts = await Promise.all(files.map((file) => readFile(path.join(elsewhere, file), 'utf8')))
    for (const entry of entries) expect(texts.join('\n')).toContain(`kb_id: ${entry.id}`)
    const welcomeText = texts[files.findIndex((file) => /welcome/i.test(file))]!
    expect(welcomeText).toContain('[set up](Guides/Setup.md) in [the guides](Guides/_index.md)')

    const before = server.counts().writes
    const again = await cli(['push', elsewhere, '--root-topic', root], env)
    expect(again.code, again.err).toBe(0)
    expect(server.counts().writes - before).toBe(0)

    // An edit in the pulled folder reaches the item its kb_id names, whatever the case.
    const setupFile = path.join(
      elsewhere,
      files.find((file) => /setup/i.test(file))!
    )
    await writeFile(setupFile, (await readFile(setupFile, 'utf8')).replace('First read', 'Please read'))
    const edited = await cli(['push', elsewhere, '--root-topic', root], env)
    expect(edited.code, edited.err).toBe(0)
    expect(bodyOf(await client.getItem(setup.id))).toContain('Please read')
    expect(flatten(await client.getTree(root))).toHaveLength(3)
  })
})

describe('the engine on a server that will not empty a topic body', () => {
  it('keeps the body it pushed, warns with the file, and the server refuses an empty one', async () => {
    const root = await rootTopic('Bodies')
    const dir = await temporary.make()
    await mkdir(path.join(dir, 'guides'))
    const index = path.join(dir, 'guides', '_index.md')
    await writeFile(index, '---\ntitle: Guides\n---\nAll the guides.\n')
    await writeFile(path.join(dir, 'guides', 'setup.md'), '# Setup\n\nRun it.\n')
    expect((await cli(['push', dir, '--root-topic', root], env)).code).toBe(0)
    const topic = flatten(await client.getTree(root)).find((e) => e.titlePath === 'Guides')!

    await writeFile(index, '---\ntitle: Guides\n---\n')
    const emptied = await cli(['push', dir, '--root-topic', root], env)
    expect(emptied.code, emptied.err).toBe(0)
    expect(emptied.out + emptied.err).toMatch(/guides\/_index\.md.*platform cannot hold an empty body/s)
    expect((await client.getItem(topic.id)).body?.trim()).toBe('All the guides.')

    const refused = await fetch(`${server.apiUrl}/knowledgebase/${topic.id}`, {
      method: 'PUT',
      headers: {authorization: `Bearer ${server.token}`, 'content-type': 'application/json'},
      body: JSON.stringify({body: ''})
    })
    expect([refused.status, ((await refused.json()) as {error_code: string}).error_code]).toEqual([
      400,
      'knowledge_base_body_required'
    ])
  })
})

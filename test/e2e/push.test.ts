/**
 * End-to-end: the CLI (`kbsync plan`/`push`, in-process) against the real
 * local server over HTTP, counting the requests the server saw.
 */
import {access, readFile, rename, rm, unlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'
import {bodyOf, cli, copyFixture, edit, flatten} from './push-helpers.js'

type Server = Awaited<ReturnType<typeof startServer>>

let server: Server
let env: NodeJS.ProcessEnv
let client: KbClient
const folders: string[] = []

beforeAll(async () => {
  server = await startServer({port: 0})
  env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: server.token}
  client = KbClient.fromEnv(env)
})

afterAll(async () => {
  await client?.close()
  await server?.close()
  for (const dir of folders) await rm(dir, {recursive: true, force: true})
})

async function fixture(name: string): Promise<string> {
  const dir = await copyFixture(path.join('fixtures/trees', name))
  folders.push(dir)
  return dir
}

/** A fresh topic at the knowledge-base root for one test to push under. */
async function rootTopic(title: string): Promise<string> {
  return (await client.createItem({type: 'topic', title, parent_topic_id: null})).id
}

function writes(): number {
  return server.counts().writes
}

/** Requests the server saw since the last reset, as `METHOD path` without the query. */
function requests(): string[] {
  return server
    .requestLog()
    .map((entry: {method: string; path: string}) => `${entry.method} ${entry.path.replace(/\?.*$/, '')}`)
}

describe('kbsync push end to end', () => {
  let dir: string
  let root: string

  beforeAll(async () => {
    dir = await fixture('basic')
    root = await rootTopic('Basic')
  })

  it('1. a first push creates exactly the expected tree, bodies canonical, files uploaded once, links and permissions set', async () => {
    server.resetLog()
    const run = await cli(['push', dir, '--root-topic', root], env)
    expect(run.err).not.toMatch(/error/)
    expect(run.code).toBe(0)
    const tree = flatten(await client.getTree(root))
    expect(tree.map((e) => `${e.type} ${e.titlePath}`).sort()).toEqual([
      'article Frequently asked questions',
      'article Guides / Installation',
      'article Guides / advanced / Tuning',
      'article Welcome',
      'topic Guides',
      'topic Guides / advanced'
    ])
    const byTitle = Object.fromEntries(tree.map((e) => [e.titlePath.split(' / ').pop()!, e.id]))
    const welcome = bodyOf(await client.getItem(byTitle.Welcome!))
    expect(welcome).toContain(
      `<a data-node="articleLink" data-article-id="${byTitle.Installation}">installation guide</a>`
    )
    expect(welcome).toContain(`data-topic-id="${byTitle.Guides}"`)
    expect(welcome).toMatch(/<div data-node="hintBlock" data-color="\w+">/)
    expect(welcome).toMatch(/!\[Logo\]\(\S+services\/kb\?Id=[\w-]+\)/)
    const install = await client.getItem(byTitle.Installation!)
    expect(bodyOf(install)).toMatch(/<img src="\S+services\/kb\?Id=[\w-]+" alt="Architecture" width="300">/)
    expect(bodyOf(install)).toMatch(/<a data-node="attachment" href="\S+services\/kb\?Id=[\w-]+">checklist.txt<\/a>/)
    expect(bodyOf(install)).toContain(`data-article-id="${byTitle.Tuning}"`)
    const tuning = bodyOf(await client.getItem(byTitle.Tuning!))
    expect(tuning).toContain(`data-article-id="${byTitle.Installation}"`)
    // logo.png is used by two articles, uploaded once; three distinct files in all.
    expect(requests().filter((r) => r.endsWith('/files/upload'))).toHaveLength(3)
    const guides = await client.getPermissions(byTitle.Guides!)
    expect(guides.inherit).toBe(false)
    expect(guides.readers.map((p) => p.id).sort()).toEqual([1001, 1002])
    expect(guides.editors.map((p) => p.id)).toEqual([1001])
    const installPermissions = await client.getPermissions(byTitle.Installation!)
    expect(installPermissions.readers.map((p) => p.id)).toEqual([1002])
  })

  it('2. a second push with nothing changed sends no write and reads only the structure', async () => {
    server.resetLog()
    const run = await cli(['push', dir, '--root-topic', root], env)
    expect(run.code).toBe(0)
    expect(writes()).toBe(0)
    expect(requests().every((r) => r.startsWith('GET') && r.endsWith('/knowledgebase/structure'))).toBe(true)
    const plan = await cli(['plan', dir, '--root-topic', root, '--exit-code'], env)
    expect(plan.code).toBe(0)
    expect(plan.out).toContain('No changes')
  })

  it('3. one edit is one write; a renamed file is a title change; a moved file is one move; unchanged images are not uploaded again', async () => {
    await edit(path.join(dir, 'welcome.md'), 'pushed by kbsync.', 'pushed by kbsync on every merge.')
    server.resetLog()
    expect((await cli(['push', dir, '--root-topic', root], env)).code).toBe(0)
    expect(writes()).toBe(1)
    expect(requests().filter((r) => !r.startsWith('GET'))).toEqual([
      expect.stringMatching(/^PUT .*\/knowledgebase\/\w+$/)
    ])

    await writeFile(path.join(dir, 'release-notes.md'), 'Nothing released yet.\n')
    expect((await cli(['push', dir, '--root-topic', root], env)).code).toBe(0)
    await rename(path.join(dir, 'release-notes.md'), path.join(dir, 'changelog.md'))
    server.resetLog()
    const renamed = await cli(['push', dir, '--root-topic', root, '--json'], env)
    expect(renamed.code).toBe(0)
    expect(JSON.parse(renamed.out).plan.ops.map((op: {op: string; changes?: string[]}) => [op.op, op.changes])).toEqual(
      [['rename', ['title']]]
    )
    expect(writes()).toBe(1)
    const titles = flatten(await client.getTree(root)).map((e) => e.titlePath)
    expect(titles).toContain('changelog')
    expect(titles).not.toContain('release-notes')

    await rename(path.join(dir, 'faq.md'), path.join(dir, 'guides', 'faq.md'))
    await edit(path.join(dir, 'guides', 'faq.md'), '(welcome.md)', '(../welcome.md)')
    await edit(path.join(dir, 'welcome.md'), '(faq.md#accounts)', '(guides/faq.md#accounts)')
    server.resetLog()
    expect((await cli(['push', dir, '--root-topic', root], env)).code).toBe(0)
    const sent = requests().filter((r) => !r.startsWith('GET'))
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatch(/^PUT /)
    expect(flatten(await client.getTree(root)).map((e) => e.titlePath)).toContain('Guides / Frequently asked questions')
    expect(requests().filter((r) => r.endsWith('/files/upload'))).toEqual([])
  })

  it('4. a web edit plus a local edit is a conflict: exit 3, a .remote.md file, the remote untouched; --force overwrites', async () => {
    const faqId = flatten(await client.getTree(root)).find((e) =>
      e.titlePath.endsWith('Frequently asked questions')
    )!.id
    server.webEdit(faqId, {body: 'Rewritten in the web editor.'})
    const before = await client.getItem(faqId)
    await edit(
      path.join(dir, 'guides', 'faq.md'),
      'Write to the support desk.',
      'Write to the support desk, or call us.'
    )
    server.resetLog()
    const run = await cli(['push', dir, '--root-topic', root], env)
    expect(run.code).toBe(3)
    expect(writes()).toBe(0)
    expect(await readFile(path.join(dir, 'guides', 'faq.remote.md'), 'utf8')).toContain('Rewritten in the web editor.')
    const after = await client.getItem(faqId)
    expect(after.version).toBe(before.version)
    expect(bodyOf(after)).toContain('Rewritten in the web editor.')

    const forced = await cli(['push', dir, '--root-topic', root, '--force'], env)
    expect(forced.code).toBe(0)
    expect(bodyOf(await client.getItem(faqId))).toContain('or call us.')
    await unlink(path.join(dir, 'guides', 'faq.remote.md'))
  })

  it('4b. a web edit alone is drift: reported, left as is', async () => {
    const tuningId = flatten(await client.getTree(root)).find((e) => e.titlePath.endsWith('Tuning'))!.id
    server.webEdit(tuningId, {body: 'Tuned on the web.'})
    server.resetLog()
    const run = await cli(['push', dir, '--root-topic', root], env)
    expect(run.code).toBe(0)
    expect(run.err).toContain('drift')
    expect(writes()).toBe(0)
    expect(bodyOf(await client.getItem(tuningId))).toContain('Tuned on the web.')
  })

  it('5. --prune deletes only items under the root that left the folder; without it they are listed; nothing outside the root is touched', async () => {
    const outside = await client.createItem({
      type: 'article',
      title: 'Outside the root',
      parent_topic_id: null,
      body: 'Not ours.'
    })
    const foreign = await client.createItem({
      type: 'article',
      title: 'Written on the web',
      parent_topic_id: root,
      body: 'Not ours either.'
    })
    await unlink(path.join(dir, 'changelog.md'))
    server.resetLog()
    const listed = await cli(['push', dir, '--root-topic', root], env)
    expect(listed.code).toBe(0)
    expect(listed.out).toContain('changelog')
    expect(writes()).toBe(0)
    expect(requests().filter((r) => r.startsWith('DELETE'))).toEqual([])

    const pruned = await cli(['push', dir, '--root-topic', root, '--prune', '--json'], env)
    expect(pruned.code).toBe(0)
    const result = JSON.parse(pruned.out)
    expect(result.done.map((op: {op: string; title: string}) => `${op.op} ${op.title}`)).toEqual(['delete changelog'])
    const titles = flatten(await client.getTree(root)).map((e) => e.titlePath)
    expect(titles).not.toContain('changelog')
    expect(titles).toContain('Written on the web')
    expect((await client.getItem(outside.id)).title).toBe('Outside the root')
    expect((await client.getItem(foreign.id)).title).toBe('Written on the web')
  })
})

describe('invalid input', () => {
  it('7. every error with file and line, exit code 2, zero writes', async () => {
    const dir = await fixture('invalid')
    server.resetLog()
    const run = await cli(['push', dir], env)
    expect(run.code).toBe(2)
    expect(writes()).toBe(0)
    for (const expected of [
      'bad-yaml.md:2',
      'broken-image.md:3',
      'outside-image.md:3',
      'pinned.md:1',
      'same-title-b.md:1',
      'empty.md:4',
      'dead-link.md:3',
      'bad-user.md:4',
      'topic/_permissions.yml:3',
      'wrong-type.md:2'
    ]) {
      expect(run.err).toContain(expected)
    }
    const plan = await cli(['plan', dir, '--json'], env)
    expect(plan.code).toBe(2)
    expect(JSON.parse(plan.out).blocked).toBe(true)
  })

  it('refuses more than 10 deletions without --yes, before any write', async () => {
    const dir = await fixture('basic')
    const root = await rootTopic('Many')
    for (let index = 0; index < 11; index++)
      await writeFile(path.join(dir, `extra-${index}.md`), `# Extra ${index}\n\ntext\n`)
    expect((await cli(['push', dir, '--root-topic', root], env)).code).toBe(0)
    for (let index = 0; index < 11; index++) await unlink(path.join(dir, `extra-${index}.md`))
    await edit(path.join(dir, 'faq.md'), 'support desk', 'help desk')
    server.resetLog()
    const refused = await cli(['push', dir, '--root-topic', root, '--prune'], env)
    expect(refused.code).toBe(2)
    expect(refused.err).toContain('--yes')
    expect(writes()).toBe(0)
    const confirmed = await cli(['push', dir, '--root-topic', root, '--prune', '--yes'], env)
    expect(confirmed.code).toBe(0)
    expect(flatten(await client.getTree(root)).filter((e) => e.titlePath.startsWith('Extra'))).toEqual([])
  })

  it('--write-ids pins new files to their items', async () => {
    const dir = await fixture('basic')
    const root = await rootTopic('Pinned')
    expect((await cli(['push', dir, '--root-topic', root, '--write-ids'], env)).code).toBe(0)
    const text = await readFile(path.join(dir, 'welcome.md'), 'utf8')
    const id = /kb_id: (\w+)/.exec(text)?.[1]
    expect(id).toBeDefined()
    expect((await client.getItem(id!)).title).toBe('Welcome')
    await access(path.join(dir, '.kbsync', 'state.json'))
    await rm(path.join(dir, '.kbsync'), {recursive: true})
    server.resetLog()
    // Without the state the ids still match every item: nothing is created twice.
    expect((await cli(['push', dir, '--root-topic', root], env)).code).toBe(0)
    expect(requests().filter((r) => r.startsWith('POST') && r.endsWith('/knowledgebase'))).toEqual([])
  })
})

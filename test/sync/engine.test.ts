import {cp, mkdtemp, readFile, rename, rm, writeFile, mkdir, unlink} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {loadState} from '../../src/local/index.js'
import {planPush, push} from '../../src/sync/index.js'
import {FakeClient} from './fake-client.js'

/** A server that stores every body it is sent changed by `rewrite` (and answers it so). */
class RewritingClient extends FakeClient {
  constructor(private readonly rewrite: (body: string) => string) {
    super()
  }
  override async createItem(input: Parameters<FakeClient['createItem']>[0]) {
    return this.rewritten(await super.createItem(input))
  }
  override async updateItem(id: string, input: Parameters<FakeClient['updateItem']>[1]) {
    return this.rewritten(await super.updateItem(id, input))
  }
  private rewritten(item: {id: string}) {
    const stored = this.items.get(item.id)!
    stored.body = this.rewrite(stored.body)
    return this.toItem(stored)
  }
}

const temporary: string[] = []
afterAll(async () => {
  for (const dir of temporary) await rm(dir, {recursive: true, force: true})
})

async function edit(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(file, 'utf8')
  if (!text.includes(from)) throw new Error(`${from} not in ${file}`)
  await writeFile(file, text.replace(from, to))
}

async function copyTree(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-engine-'))
  temporary.push(dir)
  await cp(path.resolve('fixtures/trees', name), dir, {recursive: true})
  return dir
}

describe('push with an in-memory client', () => {
  it('creates the tree, then does nothing, then one write per edit', async () => {
    const dir = await copyTree('basic')
    const client = new FakeClient()
    const first = await push({dir, client})
    expect(first.failed).toEqual([])
    expect(first.status).toBe('ok')
    const titles = [...client.items.values()].map((s) => s.title).sort()
    expect(titles).toEqual(['Frequently asked questions', 'Guides', 'Installation', 'Tuning', 'Welcome', 'advanced'])
    const uploads = client.calls.filter((c) => c.startsWith('UPLOAD'))
    // logo.png is used by two articles: uploaded once, referenced by URL from the second.
    expect(uploads.sort()).toEqual(['UPLOAD checklist.txt', 'UPLOAD diagram.png', 'UPLOAD logo.png'])
    const welcome = [...client.items.values()].find((s) => s.title === 'Welcome')!
    const install = [...client.items.values()].find((s) => s.title === 'Installation')!
    const guides = [...client.items.values()].find((s) => s.title === 'Guides')!
    expect(welcome.body).toContain(`data-article-id="${install.id}"`)
    expect(welcome.body).toContain(`data-topic-id="${guides.id}"`)
    expect(welcome.body).toContain('http://files.test/services/kb?Id=')

    client.calls = []
    const second = await push({dir, client})
    expect(second.status).toBe('ok')
    expect(client.calls).toEqual(['GET structure'])

    await writeFile(path.join(dir, 'faq.md'), (await readFile(path.join(dir, 'faq.md'), 'utf8')) + '\nOne more line.\n')
    client.calls = []
    await push({dir, client})
    expect(client.calls.filter((c) => !c.startsWith('GET'))).toHaveLength(1)

    // Move a file between folders and fix the relative links to and from it: the stored
    // bodies do not change, so this is one PUT (the move), no create, no delete.
    await rename(path.join(dir, 'faq.md'), path.join(dir, 'guides', 'faq.md'))
    await edit(path.join(dir, 'guides', 'faq.md'), '(welcome.md)', '(../welcome.md)')
    await edit(path.join(dir, 'welcome.md'), '(faq.md#accounts)', '(guides/faq.md#accounts)')
    client.calls = []
    const moved = await push({dir, client})
    expect(moved.plan.ops.map((o) => o.op)).toEqual(['move'])
    expect(client.calls.filter((c) => !c.startsWith('GET'))).toEqual([
      expect.stringMatching(/^PUT ID\d+ parent_topic_id,parent_topic_id_changed$/)
    ])
  })

  it('records the body stored with the URLs of fresh uploads, whether the server keeps the body as sent or not', async () => {
    // A server that adds a line to every body it stores: the body with URLs for guids is not what it answers.
    const adding = new RewritingClient((body) =>
      body.endsWith('Kept by the server.\n') ? body : body + '\n\nKept by the server.\n'
    )
    for (const client of [new FakeClient(), adding]) {
      const dir = await copyTree('basic')
      await push({dir, client})
      const {state} = await loadState(dir, null)
      const uploaders = new Set(Object.values(state.assets).map((asset) => asset.usedBy!))
      expect(uploaders.size).toBeGreaterThan(0)
      for (const file of uploaders) {
        const entry = state.items[file]!
        expect(entry.renderKey).toBeDefined()
        if (client === adding) expect(entry.renderedHash).not.toBe(entry.remoteHash)
        else expect(entry.renderedHash).toBe(entry.remoteHash)
      }
      client.calls = []
      await push({dir, client})
      expect(client.calls).toEqual(['GET structure'])
    }
  })

  it('without a state, a remote body in another form of the dialect is no change (no rewrite for nothing)', async () => {
    // The spec leaves open whether the platform quotes attributes; this server never does.
    const client = new RewritingClient((body) => body.replace(/(data-[a-z-]+)="([^"\s]*)"/g, '$1=$2'))
    const dir = await copyTree('basic')
    await writeFile(path.join(dir, 'colours.md'), '# Colours\n\n> [!NOTE]\n> A blue hint.\n\nSee the [FAQ](faq.md).\n')
    await push({dir, client})
    expect([...client.items.values()].some((item) => /data-color=blue/.test(item.body))).toBe(true)
    await rm(path.join(dir, '.kbsync'), {recursive: true})
    const plan = await planPush({dir, client})
    expect(plan.ops.filter((op) => op.op !== 'upload').map((op) => `${op.op} ${op.path}`)).toEqual([])
  })

  it('says so when a topic body is emptied: the platform cannot hold an empty body, so nothing is written', async () => {
    const dir = await copyTree('basic')
    const client = new FakeClient()
    await push({dir, client})
    await writeFile(path.join(dir, 'guides', '_index.md'), '---\ntitle: Guides\n---\n')
    await mkdir(path.join(dir, 'bare'))
    await writeFile(path.join(dir, 'bare', 'page.md'), '# Page\n\nText.\n')
    await push({dir, client})
    const plan = await planPush({dir, client})
    expect(plan.ops).toEqual([])
    // Only the topic that had a body: one created without any (no _index.md) is no case for it.
    expect(plan.diagnostics.filter((d) => d.rule === 'topic-body-kept')).toMatchObject([
      {file: 'guides/_index.md', severity: 'warning'}
    ])
  })

  it('a file renamed and edited at once updates its item (most lines kept); an unrelated new file beside a deleted one does not', async () => {
    const dir = await copyTree('basic')
    const client = new FakeClient()
    await push({dir, client})
    const faqId = (await loadState(dir, null)).state.items['faq.md']!.id
    const text = await readFile(path.join(dir, 'faq.md'), 'utf8')
    await unlink(path.join(dir, 'faq.md'))
    await writeFile(
      path.join(dir, 'questions.md'),
      text
        .replace('title: Frequently asked questions', 'title: Questions')
        .replace('Write to the support desk.', 'Write to the support desk, or call it.')
    )
    for (const file of ['welcome.md', 'guides/install.md'])
      await writeFile(
        path.join(dir, file),
        (await readFile(path.join(dir, file), 'utf8')).replaceAll('faq.md', 'questions.md')
      )
    const renamed = await planPush({dir, client})
    expect(renamed.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
    expect(renamed.ops.map((op) => [op.op, op.path, op.remoteId])).toEqual([['rename', 'questions.md', faqId]])
    expect(renamed.ops[0]!.reason).toMatch(/^renamed and edited/)
    expect(renamed.orphans).toEqual([])
    await push({dir, client})
    expect((await loadState(dir, null)).state.items['questions.md']!.id).toBe(faqId)

    await unlink(path.join(dir, 'questions.md'))
    await writeFile(
      path.join(dir, 'release-notes.md'),
      '# Release notes\n\nVersion 2 is out.\n\nIt has nothing in common with the questions.\n'
    )
    await writeFile(
      path.join(dir, 'welcome.md'),
      (await readFile(path.join(dir, 'welcome.md'), 'utf8')).replace('(questions.md#accounts)', '(release-notes.md)')
    )
    const unrelated = await planPush({dir, client})
    expect(unrelated.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
    expect(unrelated.ops.filter((op) => op.path === 'release-notes.md').map((op) => op.op)).toEqual(['create'])
    expect(unrelated.orphans.map((orphan) => orphan.remoteId)).toEqual([faqId])
  })

  it('a file moved to another folder, renamed and edited at once keeps its item; of two such files each finds its own', async () => {
    const dir = await copyTree('basic')
    const client = new FakeClient()
    await writeFile(path.join(dir, 'notes.md'), '# Notes\n\nAlpha one.\nAlpha two.\nAlpha three.\n')
    await push({dir, client})
    const ids = (await loadState(dir, null)).state.items
    const faqId = ids['faq.md']!.id
    const notesId = ids['notes.md']!.id
    const faq = await readFile(path.join(dir, 'faq.md'), 'utf8')
    await unlink(path.join(dir, 'faq.md'))
    await unlink(path.join(dir, 'notes.md'))
    await writeFile(
      path.join(dir, 'guides', 'questions.md'),
      faq
        .replace('title: Frequently asked questions', 'title: Questions')
        .replace('(welcome.md)', '(../welcome.md)')
        .replace('Write to the support desk.', 'Write to the support desk, or call it.')
    )
    await writeFile(
      path.join(dir, 'guides', 'jottings.md'),
      '# Jottings\n\nAlpha one.\nAlpha two.\nAlpha three, edited.\n'
    )
    for (const file of ['welcome.md', 'guides/install.md']) {
      await writeFile(
        path.join(dir, file),
        (await readFile(path.join(dir, file), 'utf8'))
          .replaceAll('(faq.md', '(guides/questions.md')
          .replaceAll('../faq.md', 'questions.md')
      )
    }
    const plan = await planPush({dir, client})
    expect(plan.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
    const moved = plan.ops
      .filter((op) => op.path === 'guides/questions.md' || op.path === 'guides/jottings.md')
      .map((op) => [op.op, op.path, op.remoteId])
    expect(moved.sort()).toEqual([
      ['move', 'guides/jottings.md', notesId],
      ['move', 'guides/questions.md', faqId]
    ])
    expect(plan.orphans).toEqual([])
  })

  it('a library caller who gets an option wrong hears which, before anything is read or written', async () => {
    const dir = await copyTree('basic')
    const client = new FakeClient()
    await expect(push({} as never)).rejects.toThrow(/options\.dir must be the path/)
    await expect(push({dir} as never)).rejects.toThrow(/options\.client must be a KbClient/)
    for (const concurrency of [0, -3, 2.5])
      await expect(push({dir, client, concurrency})).rejects.toThrow(/options\.concurrency must be a whole number/)
    await expect(push({dir, client, rootTopicId: 123 as never})).rejects.toThrow(/options\.rootTopicId/)
    expect(client.calls).toEqual([])
  })

  it('reads the structure while scanning, yet answers invalid input with its errors, not with a failed read', async () => {
    class Unreachable extends FakeClient {
      override async getTree(): Promise<never> {
        this.calls.push('GET structure')
        throw new Error('connect ECONNREFUSED 127.0.0.1:1')
      }
    }
    const dir = await copyTree('basic')
    await writeFile(path.join(dir, 'broken.md'), '# Broken\n\n[dead](nowhere.md)\n')
    const client = new Unreachable()
    const plan = await planPush({dir, client})
    expect(plan.blocked).toBe(true)
    expect(plan.diagnostics.some((d) => d.file === 'broken.md' && d.rule === 'missing-link-target')).toBe(true)
    expect(client.writes).toBe(0)
    await unlink(path.join(dir, 'broken.md'))
    await expect(planPush({dir, client})).rejects.toThrow('ECONNREFUSED')
  })

  it('reports a conflict and writes the remote version beside the file', async () => {
    const dir = await copyTree('basic')
    const client = new FakeClient()
    await push({dir, client})
    const faq = [...client.items.values()].find((s) => s.title === 'Frequently asked questions')!
    client.webEdit(faq.id, {body: 'Edited on the web.'})
    await writeFile(path.join(dir, 'faq.md'), '---\ntitle: Frequently asked questions\n---\n\nEdited locally.\n')
    client.calls = []
    const result = await push({dir, client})
    expect(result.status).toBe('conflict')
    expect(client.writes).toBe(0)
    expect(await readFile(path.join(dir, 'faq.remote.md'), 'utf8')).toContain('Edited on the web.')
    const forced = await push({dir, client, force: true})
    expect(forced.status).toBe('ok')
    expect(client.items.get(faq.id)!.body).toContain('Edited locally.')
  })

  it('prunes only what it created, only with --prune', async () => {
    const dir = await copyTree('basic')
    await writeFile(path.join(dir, 'old.md'), '# Old news\n\nNo one links here.\n')
    const client = new FakeClient()
    await push({dir, client})
    const foreign = await client.createItem({
      type: 'article',
      title: 'Foreign',
      parent_topic_id: null,
      body: 'not ours'
    })
    await unlink(path.join(dir, 'old.md'))
    const listed = await planPush({dir, client})
    expect(listed.ops.filter((o) => o.op === 'delete')).toEqual([])
    expect(listed.orphans.map((o) => [o.title, o.prunable]).sort()).toEqual([
      ['Foreign', false],
      ['Old news', true]
    ])
    const pruned = await push({dir, client, prune: true})
    expect(pruned.plan.ops.map((o) => o.op)).toEqual(['delete'])
    expect([...client.items.values()].map((s) => s.title)).toContain('Foreign')
    expect([...client.items.values()].map((s) => s.title)).not.toContain('Old news')
    expect(client.items.has(foreign.id)).toBe(true)
  })

  it('creates articles in a link cycle with one provisional body each at most', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-cycle-'))
    temporary.push(dir)
    await mkdir(dir, {recursive: true})
    await writeFile(path.join(dir, 'a.md'), '# A\n\nSee [B](b.md).\n')
    await writeFile(path.join(dir, 'b.md'), '# B\n\nSee [A](a.md).\n')
    const client = new FakeClient()
    const result = await push({dir, client})
    expect(result.status).toBe('ok')
    const a = [...client.items.values()].find((s) => s.title === 'A')!
    const b = [...client.items.values()].find((s) => s.title === 'B')!
    expect(a.body).toContain(`data-article-id="${b.id}"`)
    expect(b.body).toContain(`data-article-id="${a.id}"`)
    expect(client.calls.filter((c) => c.startsWith('POST'))).toHaveLength(2)
    expect(client.calls.filter((c) => c.startsWith('PUT'))).toHaveLength(1)
    client.calls = []
    await push({dir, client})
    expect(client.calls).toEqual(['GET structure'])
  })
})

/**
 * Prune safety and the other "never lose data" rules, with the in-memory
 * client: no deletion without --prune, none when the scan failed, none when
 * the folder has no articles, none after a failed write, none of items
 * kbsync does not own; permissions written only when they differ.
 */
import {cp, mkdtemp, rm, unlink, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {planPush, push, type SyncClient} from '../../src/sync/index.js'
import {FakeClient} from './fake-client.js'

const temporary: string[] = []
afterAll(async () => {
  for (const dir of temporary) await rm(dir, {recursive: true, force: true})
})

async function pushed(): Promise<{dir: string; client: FakeClient}> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-safety-'))
  temporary.push(dir)
  await cp(path.resolve('fixtures/trees/basic'), dir, {recursive: true})
  await writeFile(path.join(dir, 'old.md'), '# Old news\n\nNo one links here.\n')
  const client = new FakeClient()
  const first = await push({dir, client})
  expect(first.status).toBe('ok')
  return {dir, client}
}

const titles = (client: FakeClient) => [...client.items.values()].map((s) => s.title)

describe('prune safety', () => {
  it('does not prune when the scan has errors (nothing is written at all)', async () => {
    const {dir, client} = await pushed()
    await unlink(path.join(dir, 'old.md'))
    await writeFile(path.join(dir, 'broken.md'), '# Broken\n\n[dead](nowhere.md)\n')
    const before = client.writes
    const result = await push({dir, client, prune: true})
    expect(result.status).toBe('invalid')
    expect(client.writes).toBe(before)
    expect(titles(client)).toContain('Old news')
  })

  it('does not prune when the folder has no articles (a broken checkout looks like mass deletion)', async () => {
    const {dir, client} = await pushed()
    for (const file of [
      'old.md',
      'welcome.md',
      'faq.md',
      'guides/install.md',
      'guides/advanced/tuning.md',
      'guides/_index.md'
    ])
      await unlink(path.join(dir, file))
    const plan = await planPush({dir, client, prune: true})
    expect(plan.ops.filter((op) => op.op === 'delete')).toEqual([])
    expect(plan.diagnostics.map((d) => d.rule)).toContain('prune-empty-scan')
  })

  it('does not prune when another write of the run failed', async () => {
    const {dir, client} = await pushed()
    await unlink(path.join(dir, 'old.md'))
    await writeFile(path.join(dir, 'faq.md'), '---\ntitle: Frequently asked questions\n---\n\nChanged.\n')
    const failing = new Proxy(client, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver)
        if (name === 'updateItem') return async () => Promise.reject(new Error('server error'))
        return typeof value === 'function' ? value.bind(target) : value
      }
    }) as SyncClient
    const result = await push({dir, client: failing, prune: true})
    expect(result.status).toBe('failed')
    expect(result.skipped.map((op) => op.op)).toContain('delete')
    expect(titles(client)).toContain('Old news')
    const retry = await push({dir, client, prune: true})
    expect(retry.status).toBe('ok')
    expect(titles(client)).not.toContain('Old news')
  })

  it('never deletes an item it did not create, nor a topic holding one', async () => {
    const {dir, client} = await pushed()
    const guides = [...client.items.values()].find((s) => s.title === 'Guides')!
    await client.createItem({type: 'article', title: 'Written on the web', parent_topic_id: guides.id, body: 'mine'})
    await rm(path.join(dir, 'guides'), {recursive: true})
    for (const file of ['welcome.md', 'faq.md'])
      await writeFile(path.join(dir, file), '# ' + file + '\n\nNo links any more.\n')
    const plan = await planPush({dir, client, prune: true})
    const deleted = plan.ops.filter((op) => op.op === 'delete').map((op) => op.title)
    expect(deleted.sort()).toEqual(['Installation', 'Tuning', 'advanced'])
    expect(plan.orphans.find((o) => o.title === 'Guides')!.prunable).toBe(false)
    await push({dir, client, prune: true})
    expect(titles(client)).toEqual(expect.arrayContaining(['Guides', 'Written on the web']))
  })

  it('asks for confirmation above 10 deletions', async () => {
    const {dir, client} = await pushed()
    for (let index = 0; index < 11; index++)
      await writeFile(path.join(dir, `extra-${index}.md`), `# Extra ${index}\n\ntext\n`)
    await push({dir, client})
    for (let index = 0; index < 11; index++) await unlink(path.join(dir, `extra-${index}.md`))
    const before = client.writes
    const refused = await push({dir, client, prune: true})
    expect(refused.status).toBe('refused')
    expect(client.writes).toBe(before)
    const confirmed = await push({dir, client, prune: true, yes: true})
    expect(confirmed.status).toBe('ok')
    expect(titles(client).filter((t) => t.startsWith('Extra'))).toEqual([])
  })
})

describe('permissions', () => {
  it('are written only when they differ from the platform', async () => {
    const {dir, client} = await pushed()
    const guides = [...client.items.values()].find((s) => s.title === 'Guides')!
    expect(guides.permissions.readers.map((p) => p.id)).toEqual([1001, 1002])
    // Without the state, the engine asks the platform and finds them equal: no write.
    await rm(path.join(dir, '.kbsync'), {recursive: true})
    client.calls = []
    await push({dir, client})
    expect(client.calls.filter((c) => c.startsWith('PUT permissions'))).toEqual([])
    await writeFile(path.join(dir, 'guides', '_permissions.yml'), 'inherit: false\nreaders: [1001]\neditors: [1001]\n')
    client.calls = []
    await push({dir, client})
    expect(client.calls.filter((c) => !c.startsWith('GET'))).toEqual([`PUT permissions ${guides.id}`])
  })
})

describe('a lost state', () => {
  it('is rebuilt from the platform: no create, no upload, no write', async () => {
    const {dir, client} = await pushed()
    await rm(path.join(dir, '.kbsync'), {recursive: true})
    client.calls = []
    const result = await push({dir, client})
    expect(result.status).toBe('ok')
    expect(client.calls.filter((c) => !c.startsWith('GET'))).toEqual([])
    client.calls = []
    await push({dir, client})
    expect(client.calls).toEqual(['GET structure'])
  })
})

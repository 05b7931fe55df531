import {mkdir, mkdtemp, readFile, rename, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {applyPush, planPush, push} from '../../src/sync/index.js'
import {FakeClient} from './fake-client.js'

const temporary: string[] = []
afterAll(async () => {
  for (const dir of temporary) await rm(dir, {recursive: true, force: true})
})

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-identity-'))
  temporary.push(dir)
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), {recursive: true})
    await writeFile(path.join(dir, name), text)
  }
  return dir
}

describe('identity by content', () => {
  it('a file renamed and retitled in one push is the same item (matched by content)', async () => {
    const dir = await folder({
      'a.md': '# Alpha\n\nThe body of alpha.\n',
      'b.md': '# Beta\n\nThe body of beta.\n',
      'sub/c.md': '# Gamma\n\nGamma.\n'
    })
    const client = new FakeClient()
    expect((await push({dir, client})).status).toBe('ok')
    const alpha = [...client.items.values()].find((s) => s.title === 'Alpha')!
    await rm(path.join(dir, 'a.md'))
    await writeFile(path.join(dir, 'sub', 'renamed.md'), '# Alpha, renamed\n\nThe body of alpha.\n')
    const plan = await planPush({dir, client})
    expect(plan.ops.map((o) => [o.op, o.path, o.remoteId])).toEqual([['move', 'sub/renamed.md', alpha.id]])
    expect(plan.ops[0]!.reason).toMatch(/^matched by content/)
    client.calls = []
    const result = await push({dir, client})
    expect(result.status).toBe('ok')
    expect(client.calls.filter((c) => !c.startsWith('GET'))).toHaveLength(1)
    expect(client.items.get(alpha.id)!.title).toBe('Alpha, renamed')
    expect(client.items.size).toBe(4)
    // The state now knows the new path: nothing left to do.
    expect((await planPush({dir, client})).ops).toEqual([])
  })

  it('falls back to create when the content is not unique', async () => {
    const dir = await folder({'a.md': '# Alpha\n\nSame body.\n', 'b.md': '# Beta\n\nOther body.\n'})
    const client = new FakeClient()
    await push({dir, client})
    await rename(path.join(dir, 'a.md'), path.join(dir, 'x.md'))
    await writeFile(path.join(dir, 'x.md'), '# X\n\nSame body.\n')
    await writeFile(path.join(dir, 'y.md'), '# Y\n\nSame body.\n')
    const plan = await planPush({dir, client})
    expect(plan.ops.map((o) => o.op).sort()).toEqual(['create', 'create'])
  })

  it('a file edited and moved away from two deleted articles it is equally like is neither of them', async () => {
    const dir = await folder({
      'a.md': '# Alpha\n\nOne.\nTwo.\nThree.\n',
      'b.md': '# Beta\n\nOne.\nTwo.\nThree.\n',
      'sub/c.md': '# Gamma\n\nGamma.\n'
    })
    const client = new FakeClient()
    await push({dir, client})
    await rm(path.join(dir, 'a.md'))
    await rm(path.join(dir, 'b.md'))
    await writeFile(path.join(dir, 'sub', 'x.md'), '# X\n\nOne.\nTwo.\nThree, edited.\n')
    const plan = await planPush({dir, client})
    expect(plan.ops.map((o) => [o.op, o.path])).toEqual([['create', 'sub/x.md']])
    expect(plan.orphans).toHaveLength(2)
  })
})

describe('re-read before overwriting', () => {
  it('a web edit made between plan and apply is a conflict, not an overwrite', async () => {
    const dir = await folder({'a.md': '# Alpha\n\nFirst body.\n', 'b.md': '# Beta\n\nBeta body.\n'})
    const client = new FakeClient()
    await push({dir, client})
    const alpha = [...client.items.values()].find((s) => s.title === 'Alpha')!
    await writeFile(path.join(dir, 'a.md'), '# Alpha\n\nEdited locally.\n')
    await writeFile(path.join(dir, 'b.md'), '# Beta\n\nBeta edited locally.\n')
    const options = {dir, client}
    const plan = await planPush(options)
    expect(plan.ops.map((o) => o.op)).toEqual(['update', 'update'])
    client.webEdit(alpha.id, {body: 'Edited on the web meanwhile.'})
    const result = await applyPush(plan, options)
    expect(result.status).toBe('conflict')
    expect(client.items.get(alpha.id)!.body).toContain('Edited on the web meanwhile.')
    expect([...client.items.values()].find((s) => s.title === 'Beta')!.body).toContain('Beta edited locally.')
    expect(result.written).toContain('a.remote.md')
    expect(await readFile(path.join(dir, 'a.remote.md'), 'utf8')).toContain('Edited on the web meanwhile.')
    // The baseline is kept: the next run reports the conflict again.
    expect((await planPush(options)).ops.map((o) => o.op)).toEqual(['conflict'])
  })
})

describe('duplicate titles', () => {
  it('are allowed when every one is pinned by a kb_id, and told apart by file name otherwise', async () => {
    const client = new FakeClient()
    const one = await client.createItem({type: 'article', title: 'Same', parent_topic_id: null, body: 'one'})
    const two = await client.createItem({type: 'article', title: 'Same', parent_topic_id: null, body: 'two'})
    const dir = await folder({
      'a.md': `---\ntitle: Same\nkb_id: "${one.id}"\n---\n\nFirst of two.\n`,
      'b.md': `---\ntitle: Same\nkb_id: "${two.id}"\n---\n\nSecond of two.\n`
    })
    const result = await push({dir, client})
    expect(result.plan.diagnostics.filter((d) => d.rule === 'duplicate-title')).toEqual([])
    expect(result.status).toBe('ok')
    expect(client.items.get(one.id)!.body).toContain('First of two.')
    expect(client.items.get(two.id)!.body).toContain('Second of two.')
    expect(client.items.size).toBe(2)

    await writeFile(path.join(dir, 'b.md'), '---\ntitle: Same\n---\n\nSecond of two.\n')
    const told = await push({dir, client})
    expect(told.status).toBe('ok')
    expect(told.plan.diagnostics.map((d) => `${d.rule} ${d.file}`)).toContain('title-disambiguated b.md')
    expect(client.items.get(two.id)!.title).toBe('Same (b)')
    expect(client.items.get(one.id)!.title).toBe('Same')
  })
})

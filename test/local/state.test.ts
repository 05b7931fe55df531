import {mkdtemp, readFile, readdir, rm, writeFile, mkdir} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {
  embeddedTarget,
  emptyState,
  loadState,
  remoteTarget,
  statePath,
  StateStore,
  writeKbId
} from '../../src/local/index.js'

const temporary: string[] = []
afterAll(async () => {
  for (const dir of temporary) await rm(dir, {recursive: true, force: true})
})
async function folder(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-state-'))
  temporary.push(dir)
  return dir
}

describe('the state file', () => {
  it('round-trips, and concurrent saves leave one complete file and no temporaries', async () => {
    const dir = await folder()
    const store = new StateStore(dir, emptyState('ROOT'))
    await Promise.all(
      Array.from({length: 20}, (_, index) => {
        store.state.items[`a${index}.md`] = {id: `ID${index}`, type: 'article', title: `A${index}`, parentId: 'ROOT'}
        return store.save()
      })
    )
    const loaded = await loadState(dir, 'ROOT')
    expect(loaded.warning).toBeUndefined()
    expect(Object.keys(loaded.state.items)).toHaveLength(20)
    expect((await readdir(path.dirname(statePath(dir)))).sort()).toEqual(['state.journal', 'state.json'])
  })

  it('appends each step to the journal, which a load replays; a torn last line and a stale journal are not read', async () => {
    const dir = await folder()
    const store = new StateStore(dir, emptyState(null))
    store.state.items['a.md'] = {id: 'A', type: 'article', title: 'A', parentId: null}
    await store.save()
    const whole = await readFile(statePath(dir), 'utf8')
    store.setItem('b.md', {type: 'article', title: 'B', parentId: null, pending: 'create'})
    await store.saveChanges()
    store.setItem('b.md', {id: 'B', type: 'article', title: 'B', parentId: null})
    store.setAsset('f'.repeat(64), {guid: 'G', url: 'http://files/G'})
    store.setItem('a.md', undefined)
    await store.saveChanges()
    // A step costs a line: the whole state was not rewritten.
    expect(await readFile(statePath(dir), 'utf8')).toBe(whole)
    const journal = path.join(dir, '.kbsync', 'state.journal')
    expect((await readFile(journal, 'utf8')).trim().split('\n')).toHaveLength(5)

    await writeFile(journal, (await readFile(journal, 'utf8')) + '{"item":"c.md","entry":{"id":"C","ty')
    const loaded = await loadState(dir, null)
    expect(loaded.state.items).toEqual({'b.md': {id: 'B', type: 'article', title: 'B', parentId: null}})
    expect(loaded.state.assets).toEqual({['f'.repeat(64)]: {guid: 'G', url: 'http://files/G'}})

    // A new whole save starts a new journal; the old one, if a crash left it, names another state.
    const next = new StateStore(dir, loaded.state)
    const stale = await readFile(journal, 'utf8')
    await next.save()
    await writeFile(journal, stale + '{"item":"b.md","entry":null}\n')
    expect((await loadState(dir, null)).state.items).toEqual(loaded.state.items)
  })

  it('sets aside a state of another format or another root, with a warning', async () => {
    const dir = await folder()
    await mkdir(path.join(dir, '.kbsync'))
    await writeFile(
      statePath(dir),
      JSON.stringify({schemaVersion: 99, rootTopicId: null, items: {'a.md': {id: 'X'}}, assets: {}})
    )
    const newer = await loadState(dir, null)
    expect(newer.warning).toMatch(/format 99/)
    expect(newer.state.items).toEqual({})
    // Format 1 named no target: one of another root is kept aside, not used.
    const itemA = {id: 'X', type: 'article' as const, title: 'a', parentId: null}
    await writeFile(
      statePath(dir),
      JSON.stringify({schemaVersion: 1, rootTopicId: 'OTHER', items: {'a.md': itemA}, assets: {}})
    )
    const other = await loadState(dir, 'ROOT')
    expect(other.warning).toMatch(/root OTHER/)
    expect(other.state.items).toEqual({})
    expect(other.state.aside).toMatchObject({items: {'a.md': itemA}})
    await writeFile(statePath(dir), '{not json')
    expect((await loadState(dir, null)).warning).toMatch(/not valid JSON/)
  })
})

describe('the state per target', () => {
  const here = remoteTarget('https://kb.example.com/v4', 'https://files.example.com')
  const there = remoteTarget('https://staging.example.com/v4')
  const entry = (id: string) => ({id, type: 'article' as const, title: id, parentId: null})

  it('keeps each target apart: a run reads its own, writes the others back untouched, and the journal goes to its target', async () => {
    const dir = await folder()
    const first = new StateStore(dir, (await loadState(dir, null, here)).state)
    expect(first.state.known).toBe(false)
    first.state.items['a.md'] = entry('HERE')
    await first.save()
    first.setItem('b.md', entry('HERE-B'))
    await first.saveChanges()
    await first.close()
    // Another target: a first sync there; the journal of the first run still lands in the first target's state.
    const second = new StateStore(dir, (await loadState(dir, null, there)).state)
    expect(second.state).toMatchObject({known: false, items: {}, assets: {}})
    second.state.items['a.md'] = entry('THERE')
    await second.save()
    await second.close()
    const back = (await loadState(dir, null, here)).state
    expect(back.known).toBe(true)
    expect(back.items).toEqual({'a.md': entry('HERE'), 'b.md': entry('HERE-B')})
    expect(Object.values(back.others!).map((o) => o.items)).toEqual([{'a.md': entry('THERE')}])
    // Another root of the same server is another target too.
    expect((await loadState(dir, 'T1', here)).state.items).toEqual({})
    const file = JSON.parse(await readFile(statePath(dir), 'utf8')) as {target: {key: string}; known?: boolean}
    expect(file.target.key).toBe('https://staging.example.com/v4#root=')
    expect(file.known).toBeUndefined()
  })

  it("attributes a format-1 state to the first target only when its file URLs are that target's, else keeps it aside", async () => {
    const dir = await folder()
    await mkdir(path.join(dir, '.kbsync'))
    const old = (url: string) =>
      JSON.stringify({
        schemaVersion: 1,
        rootTopicId: null,
        items: {'a.md': entry('OLD')},
        assets: {['a'.repeat(64)]: {guid: 'G', url}}
      })
    await writeFile(statePath(dir), old('http://127.0.0.1:44537/services/kb?Id=G'))
    const remote = await loadState(dir, null, here)
    expect(remote.warning).toMatch(/files are at http:\/\/127\.0\.0\.1:44537/)
    expect(remote.state).toMatchObject({known: false, items: {}, assets: {}})
    expect(remote.state.aside).toMatchObject({items: {'a.md': entry('OLD')}})
    // The embedded knowledge base's port changes at each start: any loopback origin is its own.
    const embedded = await loadState(dir, null, embeddedTarget('.kbsync/local-kb.json', ['http://127.0.0.1:50001']))
    expect(embedded.warning).toBeUndefined()
    expect(embedded.state).toMatchObject({known: true, items: {'a.md': entry('OLD')}})
    await writeFile(statePath(dir), old('https://files.example.com/services/kb?Id=G'))
    expect((await loadState(dir, null, here)).state.items).toEqual({'a.md': entry('OLD')})
  })
})

describe('writeKbId', () => {
  it('adds a front matter block, or a key to the existing one, touching nothing else', async () => {
    const dir = await folder()
    const plain = path.join(dir, 'plain.md')
    await writeFile(plain, '# Title\n\nBody.\n')
    await writeKbId(dir, 'plain.md', 'ABC123')
    expect(await readFile(plain, 'utf8')).toBe('---\nkb_id: ABC123\n---\n# Title\n\nBody.\n')
    const fronted = path.join(dir, 'fronted.md')
    await writeFile(fronted, '---\r\ntitle: T\r\n---\r\n\r\nBody.\r\n')
    await writeKbId(dir, 'fronted.md', 'XYZ')
    expect(await readFile(fronted, 'utf8')).toBe('---\r\ntitle: T\r\nkb_id: XYZ\r\n---\r\n\r\nBody.\r\n')
    await writeKbId(dir, 'fronted.md', 'NEW')
    expect(await readFile(fronted, 'utf8')).toBe('---\r\ntitle: T\r\nkb_id: NEW\r\n---\r\n\r\nBody.\r\n')
  })

  it('writes into a block that opens after blank lines (Astro reads it as front matter), the blank lines kept', async () => {
    const dir = await folder()
    const file = path.join(dir, 'blank.mdx')
    await writeFile(file, '\n---\ntitle: T\n---\n\nBody.\n')
    await writeKbId(dir, 'blank.mdx', 'ABC')
    expect(await readFile(file, 'utf8')).toBe('\n---\ntitle: T\nkb_id: ABC\n---\n\nBody.\n')
  })
})

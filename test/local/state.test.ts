import {mkdtemp, readFile, readdir, rm, writeFile, mkdir} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {emptyState, loadState, statePath, StateStore, writeKbId} from '../../src/local/index.js'

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
    await writeFile(
      statePath(dir),
      JSON.stringify({...emptyState('OTHER'), items: {'a.md': {id: 'X', type: 'article', title: 'a', parentId: null}}})
    )
    const other = await loadState(dir, 'ROOT')
    expect(other.warning).toMatch(/root OTHER/)
    expect(other.state.items).toEqual({})
    await writeFile(statePath(dir), '{not json')
    expect((await loadState(dir, null)).warning).toMatch(/not valid JSON/)
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
})

import {mkdtemp, readFile, readdir, rm, stat, writeFile, mkdir} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {afterAll, describe, expect, it} from 'vitest'
import {emptyState, loadState, statePath, StateStore} from '../../src/local/index.js'
import {jsonChunks, writeJsonInside, writeStreamedInside} from '../../src/local/state-writer.js'

const temporary: string[] = []
afterAll(async () => {
  for (const dir of temporary) await rm(dir, {recursive: true, force: true})
})
async function folder(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-state-writer-'))
  temporary.push(dir)
  return dir
}

describe('the streamed JSON writer', () => {
  it('gives, in pieces, exactly the text of JSON.stringify(value, null, 2), at any streaming depth', () => {
    const value = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(fc.string(), fc.dictionary(fc.string(), fc.jsonValue())),
      fc.dictionary(fc.string(), fc.option(fc.jsonValue(), {nil: undefined}))
    )
    fc.assert(
      fc.property(value, fc.integer({min: 0, max: 4}), (json, depth) => {
        expect([...jsonChunks(json, depth)].join('')).toBe(JSON.stringify(json, null, 2))
      }),
      {numRuns: 300}
    )
  })

  it('streams the members of the first levels as separate pieces (no piece holds the whole)', () => {
    const items = Object.fromEntries(
      Array.from({length: 1000}, (_, i) => [`a${i}.md`, {id: `${i}`, title: 'x'.repeat(50)}])
    )
    const chunks = [...jsonChunks({schemaVersion: 2, items}, 2)]
    const longest = Math.max(...chunks.map((chunk) => chunk.length))
    expect(chunks.length).toBeGreaterThan(1000)
    expect(longest).toBeLessThan(200)
  })

  it('replaces the file atomically: a failure midway leaves the old file and no temporary', async () => {
    const dir = await folder()
    await mkdir(path.join(dir, '.kbsync'))
    writeJsonInside(dir, '.kbsync/state.json', {old: true})
    function* failing(): Generator<string> {
      yield '{"new": '
      yield 'x'.repeat(200_000)
      throw new Error('stopped while writing')
    }
    expect(() => writeStreamedInside(dir, '.kbsync/state.json', failing())).toThrow(/stopped while writing/)
    expect(JSON.parse(await readFile(path.join(dir, '.kbsync/state.json'), 'utf8'))).toEqual({old: true})
    expect(await readdir(path.join(dir, '.kbsync'))).toEqual(['state.json'])
  })

  it('refuses to write through a symbolic link that leaves the folder', async () => {
    const dir = await folder()
    const outside = await folder()
    await writeFile(path.join(outside, 'secret'), 'keep')
    const {symlink} = await import('node:fs/promises')
    await symlink(outside, path.join(dir, '.kbsync'))
    expect(() => writeJsonInside(dir, '.kbsync/state.json', {a: 1})).toThrow()
    expect(await readdir(outside)).toEqual(['secret'])
  })
})

describe('the state store, streamed', () => {
  it('round-trips a large state through the streamed whole write, byte for byte as before', async () => {
    const dir = await folder()
    const state = emptyState('ROOT')
    for (let i = 0; i < 5000; i++)
      state.items[`topic${i % 50}/a${i}.md`] = {id: `${i}`, type: 'article', title: `A ${i}`, parentId: 'ROOT'}
    state.assets['f'.repeat(64)] = {guid: 'G', url: 'http://files/G'}
    const store = new StateStore(dir, state)
    await store.save()
    await store.close()
    const text = await readFile(statePath(dir), 'utf8')
    const {known: _known, ...file} = state
    expect(text).toBe(JSON.stringify({...file, journal: JSON.parse(text).journal}, null, 2) + '\n')
    const loaded = await loadState(dir, 'ROOT')
    expect(loaded.state.items).toEqual(state.items)
    expect(loaded.state.assets).toEqual(state.assets)
  })

  it('keeps the journal bounded: a long run folds it into the state file, and a load sees every step', async () => {
    const dir = await folder()
    const store = new StateStore(dir, emptyState(null))
    await store.save()
    const journal = path.join(dir, '.kbsync', 'state.journal')
    let largest = 0
    let appended = 0
    for (let i = 0; i < 12_000; i++) {
      const entry = {id: `${i}`, type: 'article' as const, title: `Article ${i} ${'t'.repeat(150)}`, parentId: null}
      appended += JSON.stringify({item: `a${i}.md`, entry}).length + 1
      store.setItem(`a${i}.md`, entry)
      await store.saveChanges()
      if (i % 500 === 0) largest = Math.max(largest, (await stat(journal)).size)
    }
    await store.close()
    largest = Math.max(largest, (await stat(journal)).size)
    // Without folding, the journal holds every step (~2.4 MB); folded, it never outgrows the state it follows.
    expect(largest).toBeLessThan(0.65 * appended)
    const loaded = await loadState(dir, null)
    expect(Object.keys(loaded.state.items)).toHaveLength(12_000)
    expect(loaded.state.items['a11999.md']?.id).toBe('11999')
  })
})

/**
 * The local server at the scale of issue 32: the structure listing and a
 * topic's deletion through an index of children (same answers as a scan of
 * the store, whatever the moves; no nesting overflows the stack), a request
 * log bounded in a long run with exact counts, and persistence that shares
 * one sync among concurrent writes and keeps every answered write.
 */
import fc from 'fast-check'
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {KbStore} from '../../src/server/index.js'
import type {StoreContext} from '../../src/server/store.js'
import {serversPerTest} from './helpers.js'

const editor = {id: 1}

/** A store in memory with ids `i0`, `i1`, … */
function freshStore(): KbStore {
  let next = 0
  const context: StoreContext = {
    newId: () => `i${next++}`,
    now: () => '2026-01-01T00:00:00Z',
    fileUrl: (guid) => `http://127.0.0.1:1/services/kb?Id=${guid}`,
    users: [{id: 1}]
  }
  return new KbStore(context)
}

/** The ids under `parent` as a scan of the whole store finds them (the store's order). */
const scanned = (store: KbStore, parent: string | null) =>
  store
    .all()
    .filter((item) => item.parent_topic_id === parent)
    .map((item) => item.id)

describe('local server: the structure at scale', () => {
  it('lists, moves and deletes through 20,000 nested topics without overflowing the stack', () => {
    const store = freshStore()
    let parent: string | null = null
    for (let i = 0; i < 20_000; i++)
      parent = store.create({type: 'topic', title: `T${i}`, parent_topic_id: parent}, editor).id
    store.create({title: 'Leaf', body: 'x', parent_topic_id: parent}, editor)
    // The browse page asks for every level at once.
    let node = store.structure(null, Number.MAX_SAFE_INTEGER)[0]
    let depth = 0
    while (node?.children) {
      node = node.children[0]
      depth++
    }
    expect(depth).toBe(20_000)
    expect(store.remove('i0', true)).toBe(true)
    expect(store.all()).toEqual([])
  })

  it('answers children in the order of a scan of the store, whatever creates, moves and deletes came before', () => {
    type Step =
      {kind: 'create'; topic: boolean; parent: number} | {kind: 'move' | 'delete'; item: number; parent: number}
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({kind: fc.constant('create' as const), topic: fc.boolean(), parent: fc.nat(20)}),
      fc.record({kind: fc.constantFrom('move' as const, 'delete' as const), item: fc.nat(40), parent: fc.nat(20)})
    )
    fc.assert(
      fc.property(fc.array(step, {maxLength: 80}), (steps) => {
        const store = freshStore()
        const topics = () => store.all().filter((item) => item.type === 'topic')
        // A parent index past the topics is the root.
        const pick = (n: number) => topics()[n]?.id ?? null
        for (const next of steps) {
          try {
            if (next.kind === 'create') {
              const type = next.topic ? 'topic' : 'article'
              store.create({type, title: 'x', body: 'x', parent_topic_id: pick(next.parent)}, editor)
            } else {
              const item = store.all()[next.item]
              if (!item) continue
              if (next.kind === 'delete') store.remove(item.id, true)
              else store.update(item.id, {parent_topic_id: pick(next.parent), parent_topic_id_changed: true}, editor)
            }
          } catch {
            // Refused (a topic into its own subtree): nothing changed.
          }
        }
        for (const parent of [null, ...topics().map((topic) => topic.id)]) {
          expect(store.structure(parent, 1).map((node) => node.id)).toEqual(scanned(store, parent))
        }
      }),
      {numRuns: 200}
    )
  })
})

const start = serversPerTest({seed: 3})
const folders: string[] = []
const freshPath = () => {
  folders.push(mkdtempSync(join(tmpdir(), 'kbsync-scale-')))
  return join(folders.at(-1)!, 'kb.json')
}
// The servers of each test are closed after it, so their folders can go once all have run.
afterAll(() => folders.forEach((folder) => rmSync(folder, {recursive: true, force: true})))

describe('local server: a long run', () => {
  it('keeps the most recent requests in its log and counts every one', async () => {
    const {server, call} = await start({requestLogLimit: 10})
    for (let i = 0; i < 20; i++) await call('POST', '/knowledgebase', {title: `A${i}`, body: 'x'})
    for (let i = 0; i < 5; i++) await call('GET', '/knowledgebase/structure')
    expect(server.requestLog()).toHaveLength(10)
    expect(server.requestLog().map((entry) => entry.endpoint)).toEqual([
      ...Array(5).fill('create'),
      ...Array(5).fill('structure')
    ])
    expect(server.counts()).toEqual({writes: 20, create: 20, structure: 5})
    expect(server.requestCount()).toBe(25)
    server.resetLog()
    expect([server.requestLog().length, server.requestCount(), server.counts()]).toEqual([0, 0, {writes: 0}])
  })

  it('has every answered write in its log before closing, and loads them all again after', async () => {
    const dataPath = freshPath()
    const first = await start({dataPath})
    // Concurrent writes share syncs; each is answered only once it is on disk.
    const body = 'word '.repeat(800)
    const made = await Promise.all(
      Array.from({length: 300}, (_, i) => first.call('POST', '/knowledgebase', {title: `A${i}`, body}))
    )
    expect(made.every((answer) => answer.status === 200)).toBe(true)
    // As after a kill: the log (or a snapshot the log was folded into) holds every item answered.
    const second = await start({dataPath})
    const titles = (items: Array<{title: string}>) => items.map((item) => item.title).sort()
    expect(titles(second.server.items())).toEqual(titles(made.map((answer) => answer.json)))
    await second.server.close()
    await first.server.close()
    expect(existsSync(`${dataPath}.tmp`)).toBe(false)
    const third = await start({dataPath})
    expect(third.server.items()).toEqual(first.server.items())
    expect(JSON.parse(readFileSync(dataPath, 'utf8')).items).toHaveLength(300)
  })
})

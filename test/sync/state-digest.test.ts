/**
 * `snapshotState` tells what `JSON.stringify(state)` tells (whether a push
 * or a pull changed the state, so whether to save it), without building
 * the text: a snapshot reports a change exactly when the texts differ, an
 * entry changed in place included, and making and checking it turns no
 * entry into text (issue 32: a digest of every entry's JSON text, two or
 * three times a run, was half a second a check at 30,000 items).
 */
import fc from 'fast-check'
import {afterEach, describe, expect, it, vi} from 'vitest'
import type {SyncState} from '../../src/local/index.js'
import {snapshotState} from '../../src/sync/shared/state-digest.js'

const key = fc.constantFrom('a.md', 'b.md', 'dir', 'dir/c.md', 'x"y.md', '', '10', '2')
const entry = fc.record(
  {
    id: fc.constantFrom('1', '2', '3'),
    type: fc.constantFrom('article' as const, 'topic' as const),
    title: fc.constantFrom('A', 'B', 'a\u0000b', ''),
    parentId: fc.constantFrom(null, '9'),
    sourceHash: fc.constantFrom('h1', 'h2', undefined),
    remoteVersion: fc.constantFrom(1, 2, NaN, Infinity, undefined),
    missingFiles: fc.constantFrom(true, false, undefined),
    extra: fc.constantFrom(undefined, [1], {a: 1}, {a: 2})
  },
  {requiredKeys: ['type', 'title', 'parentId']}
)
/** The same entry with its fields in another order (the text differs, the values do not). */
const shuffled = entry.chain((value) =>
  fc
    .shuffledSubarray(Object.keys(value), {minLength: Object.keys(value).length})
    .map((keys) => Object.fromEntries(keys.map((name) => [name, (value as Record<string, unknown>)[name]])))
)
const state = fc.record(
  {
    schemaVersion: fc.constantFrom(1, 2),
    rootTopicId: fc.constantFrom(null, 'root'),
    items: fc.dictionary(key, fc.oneof(entry, shuffled), {maxKeys: 4}),
    assets: fc.dictionary(fc.constantFrom('h1', 'h2'), fc.record({guid: fc.constantFrom('g1', 'g2')}), {maxKeys: 2}),
    others: fc.constantFrom(undefined, {k: {items: {}}}, {k: {items: {'a.md': {id: '1'}}}}),
    linksPending: fc.constantFrom(true, undefined),
    publisher: fc.constantFrom(7, undefined)
  },
  {requiredKeys: ['schemaVersion', 'rootTopicId', 'items', 'assets']}
) as fc.Arbitrary<SyncState>

afterEach(() => {
  vi.restoreAllMocks()
})

describe('snapshotState', () => {
  it('reports a change exactly when the JSON texts differ', () => {
    fc.assert(
      fc.property(state, state, (a, b) => {
        expect(snapshotState(a).changed(b)).toBe(JSON.stringify(a) !== JSON.stringify(b))
        expect(snapshotState(a).changed(a)).toBe(false)
      }),
      {numRuns: 3000}
    )
  })

  it('sees one field of one entry changed in place, an entry moved, added or dropped', () => {
    const base: SyncState = {
      schemaVersion: 2,
      rootTopicId: null,
      items: {'a.md': {id: '1', type: 'article', title: 'A', parentId: null}},
      assets: {}
    }
    const snapshot = snapshotState(base)
    expect(snapshot.changed(structuredClone(base))).toBe(false)
    expect(snapshot.changed({...base, linksPending: undefined})).toBe(false)
    expect(snapshot.changed({...base, items: {'b.md': base.items['a.md']!}})).toBe(true)
    expect(snapshot.changed({...base, items: {}})).toBe(true)
    expect(snapshot.changed({...base, assets: {h: {guid: 'g'}}})).toBe(true)
    base.items['a.md']!.title = 'B'
    expect(snapshot.changed(base)).toBe(true)
    base.items['a.md']!.title = 'A'
    base.items['a.md']!.remoteVersion = 3
    expect(snapshot.changed(base)).toBe(true)
  })

  it('turns no entry into JSON text (a digest stringified each of them at each check)', () => {
    const items: SyncState['items'] = {}
    for (let index = 0; index < 1000; index++)
      items[`doc-${index}.md`] = {id: String(index), type: 'article', title: `Doc ${index}`, parentId: null}
    const base: SyncState = {schemaVersion: 2, rootTopicId: null, items, assets: {}}
    const stringify = vi.spyOn(JSON, 'stringify')
    const snapshot = snapshotState(base)
    expect(snapshot.changed(base)).toBe(false)
    expect(snapshot.changed(base)).toBe(false)
    // The fields beside the items and assets, once per look: three in all, where a digest made 2,000 per look.
    expect(stringify.mock.calls.length).toBeLessThanOrEqual(3)
  })
})

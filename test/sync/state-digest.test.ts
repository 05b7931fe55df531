/**
 * `stateDigest` tells what `JSON.stringify(state)` tells (whether a pull
 * changed the state, so whether to save it), without building the text:
 * two states have the same digest exactly when they have the same text.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import type {SyncState} from '../../src/local/index.js'
import {stateDigest} from '../../src/sync/shared/state-digest.js'

const key = fc.constantFrom('a.md', 'b.md', 'dir', 'dir/c.md', 'x"y.md', '')
const entry = fc.record(
  {
    id: fc.constantFrom('1', '2', '3'),
    type: fc.constantFrom('article' as const, 'topic' as const),
    title: fc.constantFrom('A', 'B', 'a\u0000b', ''),
    parentId: fc.constantFrom(null, '9'),
    sourceHash: fc.constantFrom('h1', 'h2', undefined),
    missingFiles: fc.constantFrom(true, undefined)
  },
  {requiredKeys: ['type', 'title', 'parentId']}
)
const state = fc.record(
  {
    schemaVersion: fc.constantFrom(1, 2),
    rootTopicId: fc.constantFrom(null, 'root'),
    items: fc.dictionary(key, entry, {maxKeys: 4}),
    assets: fc.dictionary(fc.constantFrom('h1', 'h2'), fc.record({guid: fc.constantFrom('g1', 'g2')}), {maxKeys: 2}),
    linksPending: fc.constantFrom(true, undefined),
    publisher: fc.constantFrom(7, undefined)
  },
  {requiredKeys: ['schemaVersion', 'rootTopicId', 'items', 'assets']}
) as fc.Arbitrary<SyncState>

describe('stateDigest', () => {
  it('is equal for two states exactly when their JSON texts are', () => {
    fc.assert(
      fc.property(state, state, (a, b) => {
        expect(stateDigest(a) === stateDigest(b)).toBe(JSON.stringify(a) === JSON.stringify(b))
      }),
      {numRuns: 2000}
    )
  })

  it('sees one field of one entry change, and an entry move', () => {
    const items = {'a.md': {id: '1', type: 'article' as const, title: 'A', parentId: null}}
    const base: SyncState = {schemaVersion: 2, rootTopicId: null, items, assets: {}}
    const digest = stateDigest(base)
    expect(stateDigest(structuredClone(base))).toBe(digest)
    expect(stateDigest({...base, items: {'a.md': {...items['a.md'], title: 'B'}}})).not.toBe(digest)
    expect(stateDigest({...base, items: {'b.md': items['a.md']}})).not.toBe(digest)
    expect(stateDigest({...base, linksPending: undefined})).toBe(digest)
  })
})

import {describe, expect, it} from 'vitest'
import type {StructureNode} from '../../src/api/types.js'
import {UpdateListings} from '../../src/sync/push/update-listings.js'

const node = (id: string, updated_at: string): StructureNode => ({
  id,
  type: 'article',
  title: id,
  parent_topic_id: 'T',
  updated_at
})

describe('the listings of the last looks before overwrites', () => {
  it('answer for a topic within two seconds of their start, then list it again', async () => {
    let clock = 0
    const calls: Array<string | null> = []
    const listings = new UpdateListings(
      async (parent) => {
        calls.push(parent)
        return [node('A', `v${calls.length}`), node('B', 'b')]
      },
      () => clock
    )
    expect(await listings.updatedAt('T', 'A')).toEqual({updatedAt: 'v1', started: 0})
    clock = 2000
    expect(await listings.updatedAt('T', 'B')).toEqual({updatedAt: 'b', started: 0})
    expect(await listings.updatedAt('U', 'A')).toEqual({updatedAt: 'v2', started: 2000})
    clock = 2001
    expect(await listings.updatedAt('T', 'A')).toEqual({updatedAt: 'v3', started: 2001})
    expect(await listings.updatedAt('T', 'C')).toEqual({started: 2001})
    expect(calls).toEqual(['T', 'U', 'T'])
  })

  it('keep a slow topic fresh for twice what its listing took, and never keep a failed one', async () => {
    let clock = 0
    let fail = false
    let calls = 0
    const listings = new UpdateListings(
      async () => {
        calls++
        if (fail) throw new Error('down')
        clock += 5000
        return [node('A', 'a')]
      },
      () => clock
    )
    await listings.updatedAt('T', 'A')
    clock = 10_000
    await listings.updatedAt('T', 'A')
    expect(calls).toBe(1)
    clock = 10_001
    fail = true
    await expect(listings.updatedAt('T', 'A')).rejects.toThrow('down')
    await expect(listings.updatedAt('T', 'A')).rejects.toThrow('down')
    expect(calls).toBe(3)
  })
})

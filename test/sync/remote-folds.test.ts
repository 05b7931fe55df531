/**
 * The folds over the remote tree of push (issue 32): `findOrphans` and
 * `findTwins` recursed once per level and overflowed the stack on a topic
 * chain 30,000 deep; the explicit stack of `foldRemote` visits in the order
 * the recursion did, on random shapes.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import type {ScanResult, SyncState} from '../../src/local/index.js'
import type {RemoteItem, RemoteSnapshot} from '../../src/sync/shared/remote.js'
import {findOrphans, orderDeletions} from '../../src/sync/push/orphans.js'
import {foldRemote} from '../../src/sync/push/remote-fold.js'
import {findTwins} from '../../src/sync/push/twins.js'

/** A snapshot from `parents` (each item's parent index, or -1 for the root): item i is `t{i}`, titled `titles[i]`. */
function snapshot(parents: number[], titles: (i: number) => string = (i) => `T${i}`): RemoteSnapshot {
  const items: Record<string, RemoteItem> = {}
  const top: string[] = []
  parents.forEach((parent, i) => {
    items[`t${i}`] = {
      id: `t${i}`,
      type: 'topic',
      title: titles(i),
      parentId: parent < 0 ? null : `t${parent}`,
      children: []
    }
  })
  parents.forEach((parent, i) => (parent < 0 ? top : items[`t${parent}`]!.children).push(`t${i}`))
  return {rootTopicId: null, items, top, details: {}, permissions: {}}
}

/** A chain `length` deep under one top item. */
const chain = (length: number, from = 0) => Array.from({length}, (_, i) => (i === 0 ? -1 : from + i - 1))

const noState = {schemaVersion: 1, items: {}} as unknown as SyncState
const noScan = {byPath: {}} as unknown as ScanResult

describe('foldRemote', () => {
  it('enters and leaves in the order of the recursion', () => {
    // Each item's parent is an earlier item (or none): every forest of up to 30 items.
    const forest = fc.array(fc.nat(), {maxLength: 30}).map((draws) => draws.map((draw, i) => (draw % (i + 1)) - 1))
    fc.assert(
      fc.property(forest, (parents) => {
        const remote = snapshot(parents)
        const recursive: string[] = []
        const visit = (id: string): number => {
          recursive.push(`enter ${id}`)
          const sum = remote.items[id]!.children.map(visit).reduce((a, b) => a + b, 0)
          recursive.push(`leave ${id} ${sum}`)
          return sum + 1
        }
        const expected = remote.top.map(visit)
        const seen: string[] = []
        const got = foldRemote<number>(remote, {
          enter: (id) => seen.push(`enter ${id}`),
          leave(id, children) {
            const sum = children.reduce((a, b) => a + b, 0)
            seen.push(`leave ${id} ${sum}`)
            return sum + 1
          }
        })
        expect(seen).toEqual(recursive)
        expect(got).toEqual(expected)
      })
    )
  })
})

describe('a topic chain 30,000 deep', () => {
  const depth = 30_000

  it('gives its orphans without overflowing the stack, deepest first to delete', () => {
    const remote = snapshot(chain(depth))
    const orphans = findOrphans(remote, new Map(), noState, noScan)
    expect(orphans).toHaveLength(depth)
    expect(orphans[0]!.remoteId).toBe(`t${depth - 1}`)
    expect(orphans.every((orphan) => !orphan.prunable)).toBe(true)
    expect(orderDeletions(orphans, remote)[0]!.remoteId).toBe(`t${depth - 1}`)
  })

  it('gives its twins without overflowing the stack', () => {
    // A tracked chain and its twin chain beside it, title for title.
    const parents = [...chain(depth), ...chain(depth, depth)]
    const remote = snapshot(parents, (i) => `T${i % depth}`)
    const mapped = new Set(Array.from({length: depth}, (_, i) => `t${i}`))
    const orphans = findOrphans(remote, new Map([...mapped].map((id) => [id, id])), noState, noScan)
    const twins = findTwins(remote, orphans, mapped)
    expect(twins).toHaveLength(depth)
    expect(twins.every((twin) => twin.removable)).toBe(true)
    expect(twins.at(-1)).toEqual({remoteId: `t${depth}`, of: 't0', removable: true})
  })
})

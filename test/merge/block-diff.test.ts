import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {alignHunk, diffKeys, type Hunk} from '../../src/merge/block-diff.js'

/** The length of a longest common subsequence, by the textbook table. */
function lcsLength(a: readonly string[], b: readonly string[]): number {
  let row = new Array<number>(b.length + 1).fill(0)
  for (const x of a) {
    const next = [0]
    for (const [j, y] of b.entries()) next.push(x === y ? row[j]! + 1 : Math.max(row[j + 1]!, next[j]!))
    row = next
  }
  return row[b.length]!
}

/** `a` with each hunk replaced by its remote blocks. */
function applyHunks(a: readonly string[], b: readonly string[], hunks: readonly Hunk[]): string[] {
  const out: string[] = []
  let i = 0
  for (const hunk of hunks) {
    out.push(...a.slice(i, hunk.baseStart), ...b.slice(hunk.remoteStart, hunk.remoteEnd))
    i = hunk.baseEnd
  }
  return [...out, ...a.slice(i)]
}

const keys = fc.array(fc.constantFrom('a', 'b', 'c', 'd'), {maxLength: 30})

describe('diffKeys', () => {
  it('gives hunks that turn base into remote, keeping a longest common subsequence', () => {
    fc.assert(
      fc.property(keys, keys, (a, b) => {
        const hunks = diffKeys(a, b)
        expect(applyHunks(a, b, hunks)).toEqual(b)
        const changed = hunks.reduce((sum, hunk) => sum + hunk.baseEnd - hunk.baseStart, 0)
        expect(a.length - changed).toBe(lcsLength(a, b))
        for (const [index, hunk] of hunks.entries()) {
          expect(hunk.baseEnd - hunk.baseStart + hunk.remoteEnd - hunk.remoteStart).toBeGreaterThan(0)
          if (index > 0) expect(hunk.baseStart).toBeGreaterThan(hunks[index - 1]!.baseEnd - 1)
        }
      }),
      {numRuns: 300}
    )
  })

  it('makes texts that differ past its bound one hunk, in bounded time', () => {
    const a = Array.from({length: 3000}, (_, index) => `a${index}`)
    const b = Array.from({length: 3000}, (_, index) => `b${index}`)
    expect(diffKeys(['same', ...a, 'end'], ['same', ...b, 'end'])).toEqual([
      {baseStart: 1, baseEnd: 3001, remoteStart: 1, remoteEnd: 3001}
    ])
  })
})

describe('alignHunk', () => {
  it('pairs blocks of the same kind and keeps the rest as runs', () => {
    const hunk = {baseStart: 2, baseEnd: 3, remoteStart: 2, remoteEnd: 4}
    expect(alignHunk(hunk, ['list'], ['list', 'paragraph'])).toEqual([
      {baseStart: 2, baseEnd: 3, remoteStart: 2, remoteEnd: 3},
      {baseStart: 3, baseEnd: 3, remoteStart: 3, remoteEnd: 4}
    ])
  })
})

/** Group commit: writes that arrive while a flush runs share the next flush, and none is answered before a flush that started after it. */
import {describe, expect, it} from 'vitest'
import {groupCommit} from '../../src/server/group-commit.js'

describe('local server: group commit', () => {
  it('runs one flush for the commits of one moment and one more for all that came during it', async () => {
    const started: number[] = []
    const ends: Array<() => void> = []
    const commit = groupCommit(() => {
      started.push(started.length)
      return new Promise<void>((resolve) => ends.push(resolve))
    })
    const done: string[] = []
    const first = [commit(), commit()].map((p, i) => p.then(() => done.push(`a${i}`)))
    await Promise.resolve()
    await Promise.resolve()
    expect(started).toHaveLength(1)
    // While the first flush runs, ten more writes: they wait for a second flush, not one each.
    const second = Array.from({length: 10}, (_, i) => commit().then(() => done.push(`b${i}`)))
    ends[0]!()
    await Promise.all(first)
    expect(done).toEqual(['a0', 'a1'])
    await new Promise((resolve) => setImmediate(resolve))
    expect(started).toHaveLength(2)
    ends[1]!()
    await Promise.all(second)
    expect(done).toHaveLength(12)
    expect(started).toHaveLength(2)
  })

  it('rejects the commits of a failed flush and flushes again for the next ones', async () => {
    let fail = true
    const commit = groupCommit(async () => {
      if (fail) throw new Error('disk full')
    })
    await expect(commit()).rejects.toThrow('disk full')
    fail = false
    await expect(commit()).resolves.toBeUndefined()
  })
})

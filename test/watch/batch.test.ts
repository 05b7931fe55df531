/**
 * The pure debounce/coalesce logic of watch mode on a fake clock: bursts
 * become one batch, pushes never overlap, failures retry with backoff, a
 * stream that never pauses is still flushed.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {
  coalesce,
  createBatcher,
  describeBatch,
  type Batch,
  type ChangeEvent,
  type RunOutcome,
  type Timers
} from '../../src/cli/watch/batch.js'

/** A manual clock: timers fire only in `advance`. */
function fakeClock(): Timers & {advance(ms: number): Promise<void>; readonly time: number} {
  let time = 0
  let seq = 0
  const tasks = new Map<number, {at: number; cb: () => void}>()
  const flushMicrotasks = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve()
  }
  return {
    get time() {
      return time
    },
    now: () => time,
    setTimeout(cb, ms) {
      const id = ++seq
      tasks.set(id, {at: time + ms, cb})
      return id
    },
    clearTimeout(handle) {
      tasks.delete(handle as number)
    },
    async advance(ms) {
      const end = time + ms
      for (;;) {
        await flushMicrotasks()
        const next = [...tasks.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0]
        if (!next) break
        tasks.delete(next[0])
        time = next[1].at
        next[1].cb()
      }
      time = end
      await flushMicrotasks()
    }
  }
}

const change = (path: string, kind: ChangeEvent['kind'] = 'change'): ChangeEvent => ({kind, path})

describe('coalesce', () => {
  it('keeps each path once with its last event, in order of the latest event', () => {
    const batch = coalesce([
      change('a.md', 'add'),
      change('b.md'),
      change('a.md', 'change'),
      change('tmp~', 'add'),
      change('tmp~', 'unlink')
    ])
    expect(batch.events).toBe(5)
    expect(batch.changes).toEqual([change('b.md'), change('a.md', 'change'), change('tmp~', 'unlink')])
    expect(describeBatch(batch, 2)).toBe('3 changed: b.md, a.md, +1 more')
    // The start's own sync (path '') is not counted as a changed file.
    expect(describeBatch(coalesce([change('', 'sync'), change('c.md')]))).toBe('1 changed: c.md')
  })

  it('law: one entry per distinct path, each the last event of that path', () => {
    const event = fc.record({
      kind: fc.constantFrom('add', 'change', 'unlink', 'addDir', 'unlinkDir' as const),
      path: fc.constantFrom('a', 'b', 'c/d', 'e')
    })
    fc.assert(
      fc.property(fc.array(event, {maxLength: 50}), (events) => {
        const batch = coalesce(events)
        const paths = new Set(events.map((e) => e.path))
        expect(batch.changes.map((c) => c.path).sort()).toEqual([...paths].sort())
        for (const c of batch.changes) expect(c).toEqual(events.findLast((e) => e.path === c.path))
      })
    )
  })
})

describe('createBatcher', () => {
  it('a burst of 100 changes becomes one batch after the quiet time', async () => {
    const clock = fakeClock()
    const batches: Batch[] = []
    const batcher = createBatcher({debounceMs: 300, timers: clock, run: async (b) => (batches.push(b), 'ok')})
    for (let i = 0; i < 100; i++) {
      batcher.add(change(`f${i}.md`, 'add'))
      await clock.advance(5) // 100 events over 500 ms, never 300 ms apart
    }
    expect(batches).toHaveLength(0)
    // The last event came at 495 ms: the batch runs at 795 ms, not a moment before.
    await clock.advance(294)
    expect(batches).toHaveLength(0)
    await clock.advance(1)
    expect(batches).toHaveLength(1)
    expect(batches[0]!.events).toBe(100)
    expect(batches[0]!.changes).toHaveLength(100)
    await batcher.idle()
  })

  it('flushes a stream that never pauses after maxWaitMs', async () => {
    const clock = fakeClock()
    const batches: Batch[] = []
    const batcher = createBatcher({
      debounceMs: 300,
      maxWaitMs: 1000,
      timers: clock,
      run: async (b) => (batches.push(b), 'ok')
    })
    for (let i = 0; i < 30; i++) {
      batcher.add(change(`f${i}.md`))
      await clock.advance(100)
    }
    expect(batches.length).toBeGreaterThanOrEqual(2)
    expect(batches.length).toBeLessThanOrEqual(3)
  })

  it('never runs two batches at once; changes during a run form the next batch', async () => {
    const clock = fakeClock()
    const batches: Batch[] = []
    let active = 0
    let most = 0
    let release: (() => void) | undefined
    const batcher = createBatcher({
      debounceMs: 100,
      timers: clock,
      run: async (b) => {
        batches.push(b)
        active++
        most = Math.max(most, active)
        await new Promise<void>((resolve) => (release = resolve))
        active--
        return 'ok'
      }
    })
    batcher.add(change('a.md'))
    await clock.advance(100)
    expect(batcher.running).toBe(true)
    batcher.add(change('b.md'))
    batcher.add(change('c.md'))
    await clock.advance(1000)
    expect(batches).toHaveLength(1)
    release!()
    await clock.advance(100)
    expect(batches).toHaveLength(2)
    expect(batches[1]!.changes.map((c) => c.path)).toEqual(['b.md', 'c.md'])
    release!()
    await clock.advance(0)
    await batcher.idle()
    expect(most).toBe(1)
  })

  it('retries a failed batch after a growing backoff, and at once on a new change', async () => {
    const clock = fakeClock()
    const runs: number[] = []
    const outcomes: RunOutcome[] = ['retry', 'retry', 'ok']
    const batcher = createBatcher({
      debounceMs: 100,
      timers: clock,
      backoffMs: (n) => 1000 * n,
      run: async () => {
        runs.push(clock.time)
        const next = outcomes.shift()
        if (next === undefined) throw new Error('boom')
        return next
      }
    })
    batcher.add(change('a.md'))
    await clock.advance(100)
    await clock.advance(1000) // first retry after 1 s
    await clock.advance(2000) // second after 2 s
    expect(runs).toEqual([100, 1100, 3100])
    // A thrown error counts as a retry; a new change then runs after the debounce, not the backoff.
    batcher.add(change('b.md'))
    await clock.advance(100)
    expect(runs).toEqual([100, 1100, 3100, 3200])
    batcher.add(change('c.md'))
    await clock.advance(100)
    expect(runs.length).toBe(5)
    await batcher.close()
  })

  it('an invalid-input outcome waits for the next change', async () => {
    const clock = fakeClock()
    let runs = 0
    const batcher = createBatcher({debounceMs: 50, timers: clock, run: async () => (runs++, 'wait')})
    batcher.add(change('bad.md'))
    await clock.advance(10_000)
    expect(runs).toBe(1)
    batcher.add(change('bad.md'))
    await clock.advance(50)
    expect(runs).toBe(2)
  })

  it('close waits for the running batch and drops what is pending', async () => {
    const clock = fakeClock()
    let finished = false
    const batcher = createBatcher({
      debounceMs: 10,
      timers: clock,
      run: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20))
        finished = true
        return 'ok'
      }
    })
    batcher.add(change('a.md'))
    await clock.advance(10)
    batcher.add(change('b.md'))
    await batcher.close()
    expect(finished).toBe(true)
    expect(batcher.pending).toBe(0)
    batcher.add(change('c.md'))
    expect(batcher.pending).toBe(0)
  })
})

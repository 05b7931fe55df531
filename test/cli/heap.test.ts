import {afterEach, describe, expect, it, vi} from 'vitest'
import {
  boundHeapGrowth,
  freeHeapBytes,
  growthPercentFor,
  heapGrowthPercent,
  smallPushBodies,
  smallPushSlackBytes
} from '../../src/cli/heap.js'

afterEach(() => {
  vi.useRealTimers()
})

describe('boundHeapGrowth', () => {
  it('leaves a heap the user tuned on the command line or in NODE_OPTIONS alone', () => {
    const bound = vi.fn()
    const huge = () => freeHeapBytes * 4
    expect(boundHeapGrowth(['--max-old-space-size=4096'], undefined, {heapSize: huge, bound})).toBe(false)
    expect(boundHeapGrowth(['--heap-growing-percent=50'], '', {heapSize: huge, bound})).toBe(false)
    expect(boundHeapGrowth([], '--require x.js --max-semi-space-size=64', {heapSize: huge, bound})).toBe(false)
    expect(bound).not.toHaveBeenCalled()
  })

  it('collects the heap once, right after the bound: the bound applies at once, not from the next collection', () => {
    vi.useFakeTimers()
    let size = freeHeapBytes / 2
    const calls: string[] = []
    const watch = {
      heapSize: () => size,
      bound: () => calls.push('bound'),
      collect: () => calls.push('collect'),
      onRunSize: () => {},
      every: 10
    }
    expect(boundHeapGrowth([], undefined, watch)).toBe(true)
    vi.advanceTimersByTime(100)
    expect(calls).toEqual([])
    size = freeHeapBytes
    vi.advanceTimersByTime(10)
    expect(calls).toEqual(['bound', 'collect'])
    vi.advanceTimersByTime(100)
    expect(calls).toEqual(['bound', 'collect'])
  })

  it('bounds the growth once the heap passes the free size, and only once', () => {
    vi.useFakeTimers()
    let size = freeHeapBytes / 2
    const bound = vi.fn()
    const collect = vi.fn()
    const watch = {heapSize: () => size, bound, collect, onRunSize: () => {}, every: 10}
    expect(boundHeapGrowth(['--enable-source-maps'], '--require x.js', watch)).toBe(true)
    vi.advanceTimersByTime(100)
    expect(bound).not.toHaveBeenCalled()
    size = freeHeapBytes + 1
    vi.advanceTimersByTime(10)
    expect(bound).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(100)
    expect(bound).toHaveBeenCalledTimes(1)
  })

  it('bounds the growth and collects before a long synchronous parse, when no timer can fire, and only once', () => {
    vi.useFakeTimers()
    const calls: string[] = []
    let heard: (() => void) | undefined
    const watch = {
      heapSize: () => freeHeapBytes * 4,
      bound: () => calls.push('bound'),
      collect: () => calls.push('collect'),
      every: 10,
      onRunSize: () => {},
      onLongWork: (listener: (() => void) | undefined) => (heard = listener)
    }
    expect(boundHeapGrowth([], undefined, watch)).toBe(true)
    heard!()
    expect(calls).toEqual(['bound', 'collect'])
    expect(heard).toBeUndefined()
    vi.advanceTimersByTime(100)
    expect(calls).toEqual(['bound', 'collect'])
  })

  it('lets a small push grow its heap a fixed slack past the live set, after each full collection; a large one 30%', () => {
    vi.useFakeTimers()
    const mb = 1024 * 1024
    let live = 50 * mb
    let heardSize: ((bodies: number) => void) | undefined
    let afterCollection: (() => void) | undefined
    const bounds: number[] = []
    const watch = {
      heapSize: () => freeHeapBytes,
      usedSize: () => live,
      bound: (percent: number) => bounds.push(percent),
      collect: () => {},
      onLongWork: () => {},
      onRunSize: (heard: ((bodies: number) => void) | undefined) => (heardSize = heard),
      afterCollections: (listener: () => void) => (afterCollection = listener),
      every: 10
    }
    expect(boundHeapGrowth([], undefined, watch)).toBe(true)
    heardSize!(smallPushBodies - 1)
    expect(bounds).toEqual([])
    vi.advanceTimersByTime(10)
    expect(bounds).toEqual([128, 128])
    live = 80 * mb
    afterCollection!()
    expect(bounds).toEqual([128, 128, 80])
    // A scan of more bodies in the same process: the 30% bound from the next collection on.
    heardSize!(smallPushBodies)
    live = 40 * mb
    afterCollection!()
    expect(bounds).toEqual([128, 128, 80, heapGrowthPercent])
  })

  it('bounds a large push, and a run that announces no size (a pull), as before: 30%, no watch of collections', () => {
    vi.useFakeTimers()
    for (const size of [smallPushBodies, undefined]) {
      let heardSize: ((bodies: number) => void) | undefined
      const bounds: number[] = []
      const afterCollections = vi.fn()
      const watch = {
        heapSize: () => freeHeapBytes,
        usedSize: () => 50 * 1024 * 1024,
        bound: (percent: number) => bounds.push(percent),
        collect: () => {},
        onLongWork: () => {},
        onRunSize: (heard: ((bodies: number) => void) | undefined) => (heardSize = heard),
        afterCollections,
        every: 10
      }
      boundHeapGrowth([], undefined, watch)
      if (size !== undefined) heardSize!(size)
      vi.advanceTimersByTime(10)
      expect(bounds).toEqual([heapGrowthPercent])
      expect(afterCollections).not.toHaveBeenCalled()
    }
  })

  it('grows a small live set by the slack, within V8 own bounds', () => {
    const mb = 1024 * 1024
    expect(growthPercentFor(64 * mb, true)).toBe(100)
    expect(growthPercentFor(smallPushSlackBytes * 4, true)).toBe(heapGrowthPercent)
    expect(growthPercentFor(1 * mb, true)).toBe(300)
    expect(growthPercentFor(1 * mb, false)).toBe(heapGrowthPercent)
  })
})

import {afterEach, describe, expect, it, vi} from 'vitest'
import {boundHeapGrowth, freeHeapBytes} from '../../src/cli/heap.js'

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
    const watch = {heapSize: () => size, bound, collect, every: 10}
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
      onLongWork: (listener: (() => void) | undefined) => (heard = listener)
    }
    expect(boundHeapGrowth([], undefined, watch)).toBe(true)
    heard!()
    expect(calls).toEqual(['bound', 'collect'])
    expect(heard).toBeUndefined()
    vi.advanceTimersByTime(100)
    expect(calls).toEqual(['bound', 'collect'])
  })
})

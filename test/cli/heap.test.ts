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

  it('bounds the growth once the heap passes the free size, and only once', () => {
    vi.useFakeTimers()
    let size = freeHeapBytes / 2
    const bound = vi.fn()
    expect(boundHeapGrowth(['--enable-source-maps'], '--require x.js', {heapSize: () => size, bound, every: 10})).toBe(
      true
    )
    vi.advanceTimersByTime(100)
    expect(bound).not.toHaveBeenCalled()
    size = freeHeapBytes + 1
    vi.advanceTimersByTime(10)
    expect(bound).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(100)
    expect(bound).toHaveBeenCalledTimes(1)
  })
})

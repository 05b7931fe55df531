import {describe, expect, it} from 'vitest'
import {boundHeapGrowth} from '../../src/cli/heap.js'

describe('boundHeapGrowth', () => {
  it('leaves a heap the user tuned on the command line or in NODE_OPTIONS alone', () => {
    expect(boundHeapGrowth(['--max-old-space-size=4096'], undefined)).toBe(false)
    expect(boundHeapGrowth(['--heap-growing-percent=50'], '')).toBe(false)
    expect(boundHeapGrowth([], '--require x.js --max-semi-space-size=64')).toBe(false)
  })

  it('bounds the growth otherwise', () => {
    expect(boundHeapGrowth(['--enable-source-maps'], '--require x.js')).toBe(true)
  })
})

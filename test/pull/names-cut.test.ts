/**
 * Long titles (200 bytes and more, in any script) are cut to a file name's
 * length at every layout a run computes, once per item: the cut costs the
 * limit, not a new segmenter and a walk over every cluster of the title
 * (3,000 titles of 210 characters took 1.9 s per layout, now under 0.1 s).
 */
import fc from 'fast-check'
import {afterEach, describe, expect, it} from 'vitest'
import {safeStem, truncateBytes} from '../../src/sync/shared/names.js'

const Segmenter = Intl.Segmenter
/** Puts `constructor` in place of `Intl.Segmenter` (read-only in the types, writable at run time). */
function useSegmenter(constructor: typeof Segmenter): void {
  Object.defineProperty(Intl, 'Segmenter', {value: constructor, writable: true, configurable: true})
}
afterEach(() => useSegmenter(Segmenter))

/** The cut by definition: the whole grapheme clusters from the start that fit in `limit` bytes. */
function clustersWithin(text: string, limit: number): string {
  let out = ''
  let bytes = 0
  for (const {segment} of new Segmenter(undefined, {granularity: 'grapheme'}).segment(text)) {
    const size = Buffer.byteLength(segment)
    if (bytes + size > limit) break
    out += segment
    bytes += size
  }
  return out
}

const scripts = ['é', 'e\u0301', 'я', '設', '🚀', '👍🏽', '🇫🇷', 'ا', 'a', ' ', '·', '\ud800', 'x\u0301\u0302\u0303']

describe('truncateBytes', () => {
  it('keeps the whole clusters that fit, as a walk over every cluster does (property)', () => {
    const text = fc.oneof(
      fc.string({unit: 'binary', maxLength: 400}),
      fc.array(fc.constantFrom(...scripts), {maxLength: 200}).map((parts) => parts.join(''))
    )
    fc.assert(
      fc.property(text, fc.integer({min: 0, max: 260}), (value, limit) => {
        expect(truncateBytes(value, limit)).toBe(clustersWithin(value, limit))
      }),
      {numRuns: 300}
    )
  })

  it('makes no segmenter per title', () => {
    let made = 0
    class Counting extends Segmenter {
      constructor(...args: ConstructorParameters<typeof Segmenter>) {
        super(...args)
        made++
      }
    }
    useSegmenter(Counting)
    const title = 'Настройка резервного копирования · 設定とデプロイの手順 · Emoji 🚀📦✅ and combining é (e\u0301) · '
    for (let index = 0; index < 100; index++)
      expect(Buffer.byteLength(safeStem(title.repeat(3) + index))).toBeLessThanOrEqual(200)
    expect(made).toBe(0)
  })
})

/** The line similarity that tells a renamed and edited file from a new one. */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {similarity, similarEnough} from '../../src/sync/shared/similar.js'

const lines = fc.array(fc.stringMatching(/^[a-z ]{1,12}$/), {maxLength: 12}).map((list) => list.join('\n'))

describe('similarity', () => {
  it('is 1 for the same lines, symmetric, and within [0, 1]', () => {
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const value = similarity(a, b)
        return similarity(a, a) === 1 && value === similarity(b, a) && value >= 0 && value <= 1
      })
    )
  })

  it('ignores blank lines and indentation, and counts a repeated line as often as both sides have it', () => {
    expect(similarity('a\n\n  b\n', 'a\nb')).toBe(1)
    expect(similarity('x\nx\nx\ny', 'x\nz')).toBeCloseTo((2 * 1) / 6)
  })

  it('keeps one edited line of three as the same article, and a rewrite as another', () => {
    expect(similarity('one\ntwo\nthree', 'one\ntwo\nthree, changed')).toBeGreaterThanOrEqual(similarEnough)
    expect(similarity('one\ntwo\nthree', 'four\nfive\nthree')).toBeLessThan(similarEnough)
  })
})

import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {trimBlanksEnd, trimLineEnds} from '../../src/trust/linear-text.js'

const blanky = fc.string({unit: fc.constantFrom(' ', '\t', '\n', 'a', '\r', '\u00a0')})

describe('linear trims', () => {
  it('trimBlanksEnd is the regex /[ \\t]+$/ (property)', () => {
    fc.assert(
      fc.property(blanky, (text) => {
        expect(trimBlanksEnd(text)).toBe(text.replace(/[ \t]+$/, ''))
      })
    )
  })

  it('trimLineEnds is the regex /[ \\t]+$/gm on \\n lines (property)', () => {
    fc.assert(
      fc.property(blanky, (text) => {
        const lines = text.split('\n').map((line) => line.replace(/[ \t]+$/, ''))
        expect(trimLineEnds(text)).toBe(lines.join('\n'))
      })
    )
  })

  it('returns on a long run of blanks before a letter (where the regexes took seconds)', () => {
    const text = ' '.repeat(1_000_000) + 'a' + ' \t'.repeat(1000)
    expect(trimBlanksEnd(text)).toBe(text.slice(0, 1_000_001))
    expect(trimLineEnds(text)).toBe(text.slice(0, 1_000_001))
  })
})

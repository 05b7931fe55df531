/**
 * `boundContainers`: the marker that would open a level past the nesting
 * limit on a line is escaped before a parse (micromark's cost for a line
 * of n container markers grows with n²), and nothing else changes.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {VFile} from 'vfile'
import {boundContainers} from '../../plugins/container-depth.js'
import {maxNesting} from '../../plugins/depth.js'
import {gfmToKbTree, parseKb} from '../../src/dialect/index.js'

describe('boundContainers', () => {
  it('escapes the marker past the limit: a quote costs one level, a list item two', () => {
    expect(boundContainers('> > > a', 2)).toBe('> > \\> a')
    expect(boundContainers('- - a', 2)).toBe('- \\- a')
    expect(boundContainers('1. 2) a', 2)).toBe('1. 2\\) a')
    expect(boundContainers('>>>\n- x\n>>>>', 3)).toBe('>>>\n- x\n>>>\\>')
  })

  it('returns the same string when no line nests past the limit', () => {
    const text = '> - a\n>   - b\n\n' + '>'.repeat(maxNesting) + ' deep enough\n'
    expect(boundContainers(text)).toBe(text)
  })

  it('leaves top-level fenced code and thematic breaks alone', () => {
    const code = '```\n' + '>'.repeat(500) + '\n```\n'
    expect(boundContainers(code)).toBe(code)
    const rule = '- '.repeat(200) + '\n'
    expect(boundContainers(rule)).toBe(rule)
    // After the fence closes, lines are containers again.
    expect(boundContainers(code + '>'.repeat(4), 3)).toBe(code + '>>>\\>')
  })

  it('keeps what a reader sees: the escaped marker reads as the same character', () => {
    fc.assert(
      fc.property(fc.integer({min: 1, max: 300}), fc.constantFrom('>', '> ', '- ', '1. ', '> - '), (count, unit) => {
        const source = unit.repeat(count) + 'end'
        const bounded = boundContainers(source)
        expect(bounded.replace(/\\/g, '')).toBe(source)
        expect(bounded.length - source.length).toBeLessThanOrEqual(1)
      }),
      {numRuns: 200}
    )
  })
})

describe('a line of thousands of container markers', () => {
  // Each took 8 s (10,000 list markers) to minutes (20,000 and more) in remark-parse alone before the bound.
  it.each([
    ['bullets', '- '],
    ['ordered items', '1. '],
    ['quotes and bullets', '> - ']
  ])('of %s parses, capped at the limit and reported on its line', (_, unit) => {
    const source = 'Intro.\n\n' + unit.repeat(Math.floor(80_000 / unit.length)) + 'end\n'
    const file = new VFile(source)
    parseKb(file)
    expect(file.messages.map((m) => [m.ruleId, m.line])).toContainEqual(['kb-nesting-too-deep', 3])
    const gfm = gfmToKbTree(source)
    expect(gfm.messages.some((m) => m.ruleId === 'kb-nesting-too-deep' && m.line === 3 && m.fatal)).toBe(true)
  })
})

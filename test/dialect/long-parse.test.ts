/**
 * A parse of a very long list or table is announced before it runs (the
 * CLI bounds its heap's growth then: no timer fires during the one
 * synchronous call that converts such a body), both ways of the dialect;
 * a short one, and a long body of prose, are not.
 */
import {afterEach, describe, expect, it} from 'vitest'
import {gfmToKb, parseKb} from '../../src/dialect/index.js'
import {announcedLines, onLongParse} from '../../src/dialect/slices/long-parse.js'

afterEach(() => onLongParse(undefined))

const list = (items: number) => Array.from({length: items}, (_, n) => `- item ${n}`).join('\n') + '\n'
const table = (rows: number) =>
  '| a | b |\n| --- | --- |\n' + Array.from({length: rows}, (_, n) => `| r${n} | ${n} |`).join('\n') + '\n'

/** How many announcements `convert` made. */
function announcements(convert: () => unknown): number {
  let heard = 0
  onLongParse(() => heard++)
  convert()
  return heard
}

describe('announcing a long parse', () => {
  it(
    'announces the parse of a list or table past the announced lines, in GFM and in the dialect',
    {timeout: 120_000},
    () => {
      expect(announcements(() => gfmToKb(list(announcedLines + 10)))).toBeGreaterThan(0)
      expect(announcements(() => parseKb(list(announcedLines + 10)))).toBeGreaterThan(0)
      expect(announcements(() => gfmToKb(table(announcedLines + 10)))).toBeGreaterThan(0)
    }
  )

  it('does not announce a shorter list, nor a long body of prose', {timeout: 120_000}, () => {
    expect(announcements(() => gfmToKb(list(2000)))).toBe(0)
    const prose = Array.from({length: 2000}, (_, n) => `Paragraph ${n} of plain text.`).join('\n\n') + '\n'
    expect(announcements(() => gfmToKb(prose))).toBe(0)
  })
})

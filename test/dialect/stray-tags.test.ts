/**
 * Law 3 of the dialect: bodies with stray, unclosed and misnested tags.
 * parseKb never throws on them, and parse then serialise is stable: a
 * second pass gives the text of the first (issue 22: `- <</div>` gained a
 * blank line per pass). Inputs are lines of dialect tags (opening, closing,
 * broken), text, list and quote markers and blank lines, in any order.
 *
 * `STRAY_TAG_RUNS=100000 npx vitest run test/dialect/stray-tags.test.ts`
 * runs it longer.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {parseKb, stringifyKb} from '../../src/dialect/index.js'

const runs = Number(process.env.STRAY_TAG_RUNS ?? 500)

/** The dialect's tags, whole and in halves, and things that look like them. */
const tag = fc.constantFrom(
  '<u>',
  '</u>',
  '<mark data-color="red">',
  '<mark data-color=blue>',
  '<mark data-color="nope">',
  '</mark>',
  '<details>',
  '</details>',
  '<summary>',
  '</summary>',
  '<div data-node="hintBlock" data-color="green">',
  '<div data-node=hintBlock data-color=gray>',
  '<div data-node="attachmentsGroup">',
  '<div data-node="other">',
  '<div>',
  '</div>',
  '<a data-node="articleLink" data-article-id="1">',
  '<a data-node="attachment" href="g">',
  '<a data-node="anchorLink" data-id="x" />',
  '<a data-node="anchorLink" data-id="x">',
  '<a href="https://h/">',
  '</a>',
  '<img src="g" width="10">',
  '<iframe data-node="drawio" src="https://d/x">',
  '</iframe>',
  '<video src="https://v/x">',
  '</video>',
  '<',
  '</',
  '>',
  '<br>'
)
const word = fc.constantFrom('a', 'text', '*b*', '`c`', 'x_y', '&amp;', '1.', '#', '|')
const piece = fc.oneof({weight: 3, arbitrary: tag}, {weight: 2, arbitrary: word}, {weight: 1, arbitrary: fc.constant(' ')})
const prefix = fc.constantFrom('', '', '', '- ', '* ', '1. ', '> ', '> > ', '    ', '  ', '- > ', '> - ', '#', '## ', '| ')
// A marker always has something after it: empty list items are a CommonMark matter, not the dialect's
// (`> -` then `> -` gains blank lines between them under mdast-util-to-markdown alone).
const line = fc.oneof(
  {weight: 1, arbitrary: fc.constant('')},
  {weight: 6, arbitrary: fc.tuple(prefix, fc.array(piece, {minLength: 1, maxLength: 5})).map(([start, pieces]) => start + (pieces.join('').trim() ? pieces.join('') : 'a'))}
)
const body = fc.array(line, {minLength: 1, maxLength: 8}).map((lines) => lines.join('\n'))

/** One pass: parse, then serialise. */
const pass = (value: string): string => stringifyKb(parseKb(value))

describe('stray dialect tags (law 3)', () => {
  it('parse then serialise is stable, and parseKb never throws', () => {
    fc.assert(
      fc.property(body, (value) => {
        const once = pass(value)
        expect(pass(once)).toBe(once)
      }),
      {numRuns: runs}
    )
  })

  it.each([
    ['a stray closing tag after text in a list item', '- <</div>'],
    ['a stray closing tag after text in a quote', '> a</details>'],
    ['an unclosed block tag after text in a list item', '- a<details>']
  ])('is stable on %s', (_, value) => {
    const once = pass(value)
    expect(pass(once)).toBe(once)
  })
})

/**
 * `plainBodyRefs` stands in for the parser in the scan: for every body it
 * accepts, the parser must find no message and exactly its references, at
 * the same lines and columns. Checked against random bodies built from the
 * pieces that matter (markers, emphasis, links, stray brackets, unsafe
 * characters), and on examples.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {bodyTree, toKbTree, type LocalNode} from '../../src/local/index.js'
import {plainBodyRefs} from '../../src/local/plain-body.js'
import {collectLocalRefs} from '../../src/local/references.js'

const destination = fc.constantFrom(
  'a.md',
  '../b/c.md',
  'img/p.png',
  '/abs.md',
  'a.md#part',
  '#part',
  '',
  'a%20b.md',
  'a_b*c.md',
  '1:x.md',
  'http://x.y/a.md',
  'mailto:a@b.c',
  '//host/a.md',
  'www.x.y',
  'é.md'
)
// No `$`: any body holding one goes to the parser (math), as the cases at the end show.
const plainText = fc.stringMatching(/^[a-zA-Z0-9 .,;:!?'"*_=+%@^{}()/#|-]{0,12}$/)
const label = fc.oneof(plainText, fc.constantFrom('', ' ', '*a*', '**b**', '_c_', 'a(b', 'é 漢 😀', 'x  ', '1.'))
const piece = fc.oneof(
  {weight: 4, arbitrary: plainText},
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom('', '!'), label, destination)
      .map(([bang, text, url]) => `${bang}[${text}](${url})`)
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '**',
      '*',
      '_',
      '__',
      ' ',
      '  ',
      '!',
      '(',
      ')',
      '|',
      'www.a.b',
      'http://a.b/c',
      'a@b.c',
      'é',
      '😀',
      '1.',
      '#',
      '-',
      '=',
      '\n',
      '   ',
      '\n===',
      '\n---',
      '*[a](b.md)*',
      '_[a](b.md)_',
      '***',
      'WWW.',
      'HTTPS://a',
      '1:',
      ':',
      '3.',
      '\n1. ',
      '\n- ',
      '[',
      ']',
      '[ ]',
      '[x]',
      '[^1]',
      '[a]: b.md',
      '[a][b]',
      '<b>',
      '<u>x</u>',
      '`c`',
      '```',
      '~~',
      '~',
      '\\',
      '&amp;',
      '>',
      '\t',
      '\r',
      '\u0000'
    )
  }
)
const prefix = fc.constantFrom(
  '',
  '',
  '',
  '# ',
  '## ',
  '### ',
  '#### ',
  '- ',
  '* ',
  '+ ',
  '1. ',
  '2) ',
  '| ',
  '> ',
  '  ',
  '    ',
  '---',
  '***',
  '===',
  '- [ ] ',
  '- [x] ',
  '-    ',
  '-     ',
  '1.      ',
  '- -     ',
  '10)     ',
  '#     '
)
const line = fc.tuple(prefix, fc.array(piece, {maxLength: 6})).map(([start, pieces]) => start + pieces.join(''))
const table = fc
  .tuple(
    fc.array(piece, {minLength: 1, maxLength: 3}),
    fc.constantFrom('| --- | --- |', '|---|', '| :-: | --: |', '| - |')
  )
  .map(([cells, delimiter]) => [`| ${cells.join(' | ')} |`, delimiter, `| ${cells.reverse().join(' | ')} |`].join('\n'))
const body = fc
  .array(
    fc.oneof({weight: 5, arbitrary: line}, {weight: 1, arbitrary: table}, {weight: 1, arbitrary: fc.constant('')}),
    {minLength: 1, maxLength: 8}
  )
  .map((lines) => lines.join('\n'))

// A second generator: lines opened by runs of list, heading and table markers with 0-8 spaces after each.
const spaces = fc.integer({min: 0, max: 8}).map((n) => ' '.repeat(n))
const marker = fc.constantFrom('-', '*', '+', '1.', '2)', '10.', '#', '##', '###', '|', '=', '---', '***', '___', '')
const markers = fc
  .array(
    fc.tuple(marker, spaces).map(([m, s]) => m + s),
    {maxLength: 3}
  )
  .map((list) => list.join(''))
const markedLine = fc.tuple(markers, fc.array(piece, {maxLength: 5})).map(([start, pieces]) => start + pieces.join(''))
const markedBody = fc.array(markedLine, {minLength: 1, maxLength: 7}).map((lines) => lines.join('\n'))

/** Checks the law on `arbitrary`; returns how many bodies were plain, and how many of those had references. */
function checkLaw(arbitrary: fc.Arbitrary<string>, numRuns: number): {accepted: number; withRefs: number} {
  let accepted = 0
  let withRefs = 0
  fc.assert(
    fc.property(arbitrary, (text) => {
      const refs = plainBodyRefs(text)
      if (refs === undefined) return
      accepted++
      if (refs.length > 0) withRefs++
      const parsed = toKbTree(text, 'x.md')
      expect(parsed.messages).toEqual([])
      expect(refs).toEqual(collectLocalRefs(parsed.tree))
    }),
    {numRuns}
  )
  return {accepted, withRefs}
}

describe('plainBodyRefs', () => {
  it('accepts only bodies where the parser finds no message and the same references (property)', () => {
    const {accepted, withRefs} = checkLaw(body, Number(process.env.PLAIN_RUNS ?? 3000))
    // The property means something only if many random bodies are plain, many of them with references. About a tenth
    // are (math, shortcodes and attribute lists now send more bodies to the parser): the floor leaves room for chance.
    expect(accepted).toBeGreaterThan(200)
    expect(withRefs).toBeGreaterThan(50)
  })

  it('holds for lines opened by list, heading and table markers and runs of spaces (property)', () => {
    const {accepted} = checkLaw(markedBody, Number(process.env.PLAIN_RUNS ?? 2000))
    expect(accepted).toBeGreaterThan(150)
  })

  it('reads the references of a typical article with their positions', () => {
    const text =
      '\n\nSee the [setup](../start/setup.md) and **the [API](api.md#auth)**.\n\n- one\n- [two](two.md)\n\n| a | b |\n| --- | --- |\n| ![chart](img/c.png) | [web](https://x.y) |\n'
    expect(plainBodyRefs(text)).toEqual([
      {kind: 'link', url: '../start/setup.md', line: 3, column: 9},
      {kind: 'link', url: 'api.md#auth', line: 3, column: 46},
      {kind: 'link', url: 'two.md', line: 6, column: 3},
      {kind: 'image', url: 'img/c.png', line: 10, column: 3}
    ])
  })

  it('makes rendering fail loudly, not point links at the wrong documents, should the scan ever have read other references', () => {
    const node = {
      path: 'a.md',
      file: 'a.md',
      kind: 'article',
      body: 'See [b](b.md) and [c](c.md).\n',
      resolutions: [{link: {target: 'b.md', kind: 'article'}}]
    } as unknown as LocalNode
    expect(() => bodyTree(node)).toThrow(
      'a.md: the body holds 2 local references, but the scan read 1; please report this with the file'
    )
  })

  it.each([
    ['HTML and dialect tags', 'a <u>b</u>'],
    ['code', 'a `[x](y.md)`'],
    ['an escape', 'a \\[x](y.md)'],
    ['a character reference', 'a &lt; b'],
    ['a quote', '> [!NOTE]\n> x'],
    ['an indented line', '- a\n    - [b](b.md)'],
    ['a reference link', '[a][r]\n\n[r]: a.md'],
    ['a footnote', 'a[^1]\n\n[^1]: b'],
    ['a task item', '- [ ] todo'],
    ['a deep heading', '#### deep'],
    ['strikethrough', '~~gone~~'],
    ['a nested link', '[a [b](b.md)](c.md)'],
    ['a link over two lines', '[a\nb](c.md)'],
    ['a destination with a title', '[a](b.md "t")'],
    ['a tab', 'a\tb'],
    ['code in a list item (five spaces after the marker)', '1.     [a](a.md)'],
    ['display math', '$$\nx^2\n$$'],
    ['inline math', 'a $x$ b, costs $5']
  ])('leaves %s to the parser', (_, text) => {
    expect(plainBodyRefs(text)).toBeUndefined()
  })
})

/**
 * Math in the authoring form (`src/dialect/gfm-to-kb/math.ts`): which `$`
 * make a formula. Display formulas (`$$` blocks, a paragraph that is only
 * `$$...$$`, ```` ```math ````) become `math` code blocks; inline ones
 * (`$$...$$` in text, `$...$` by the strict rule) inline code marked as a
 * formula. The law: prose about prices and shell variables never becomes
 * math.
 */
import fc from 'fast-check'
import type {Nodes} from 'mdast'
import {describe, expect, it} from 'vitest'
import {gfmToKb, gfmToKbTree, kbTreeToGfm} from '../../src/dialect/index.js'

/** The formulas of a conversion: `[kind, TeX]` in document order. */
function formulas(markdown: string): Array<[string, string]> {
  const found: Array<[string, string]> = []
  const visit = (node: Nodes): void => {
    if (node.type === 'code' && node.lang === 'math') found.push(['display', node.value])
    if (node.type === 'inlineCode' && node.data && 'kbsyncMath' in node.data) found.push(['inline', node.value])
    if ('children' in node) for (const child of node.children) visit(child)
  }
  visit(gfmToKbTree(markdown).tree)
  return found
}

describe('display formulas', () => {
  it.each([
    ['$$\nE = mc^2\n$$\n', 'E = mc^2'],
    ['$$ \\frac{a}{b} $$\n', '\\frac{a}{b}'],
    ['```math\nx^2\n```\n', 'x^2'],
    ['- item\n\n  $$\n  a+b\n  $$\n', 'a+b']
  ])('%j is a display formula', (markdown, tex) => {
    expect(formulas(markdown)).toEqual([['display', tex]])
  })

  it('a line of prose starting with $$ opens no formula (it would swallow the rest of the page)', () => {
    expect(formulas('$$ is the PID of the shell.\n\nNext paragraph.\n')).toEqual([])
    expect(gfmToKb('$$ is the PID.\n\nNext.\n').markdown).toBe('$$ is the PID.\n\nNext.\n')
  })

  it('becomes a math code block in the dialect (kbsync convert keeps it as code)', () => {
    expect(gfmToKb('Before.\n\n$$\na^2 + b^2\n$$\n').markdown).toBe('Before.\n\n```math\na^2 + b^2\n```\n')
  })
})

describe('inline formulas', () => {
  it.each([
    ['Where $x$ is real.', 'x'],
    ['Euler: $e^{i\\pi}+1=0$, nice.', 'e^{i\\pi}+1=0'],
    ['Text $$a+b$$ more.', 'a+b'],
    ['Dollar inside: $a \\$ b$.', 'a \\$ b'],
    ['($x_1$)', 'x_1']
  ])('%j holds one', (markdown, tex) => {
    expect(formulas(markdown)).toEqual([['inline', tex]])
  })

  it.each([
    'It costs $5 and $10.',
    'From $5-$10 per month, or $5/$10.',
    'Set $PATH:$HOME and $HOME/$USER.',
    'Run $(pwd)/$(ls) here.',
    'US$5 and US$10',
    'A lone $ sign, and $ 5 $ with spaces.',
    '${{ secrets.A }} and ${{ secrets.B }}',
    '$x$5 is not math.',
    'Escaped \\$x\\$ stays text.',
    'Across\n$lines\nand$ not.',
    '`$x$` is code.'
  ])('%j holds none', (markdown) => {
    expect(formulas(markdown)).toEqual([])
  })

  it('becomes inline code in the dialect', () => {
    expect(gfmToKb('Where $x^2$ is.').markdown).toBe('Where `x^2` is.\n')
  })
})

describe('the law: prices and shell variables are never math', () => {
  const word = fc.constantFrom('costs', 'and', 'the', 'price', 'is', 'from', 'to', 'per', 'month', 'echo', 'set')
  const price = fc
    .tuple(fc.nat({max: 99999}), fc.option(fc.nat({max: 99}), {nil: undefined}))
    .map(([whole, cents]) => `$${whole}${cents === undefined ? '' : `.${String(cents).padStart(2, '0')}`}`)
  const variable = fc
    .constantFrom('HOME', 'PATH', 'USER', '1', '@', '(pwd)', '{name}', '{{ a }}', 'x', 'FOO_BAR')
    .map((name) => `$${name}`)
  const separator = fc.constantFrom(' ', ', ', '. ', ' - ', '-', '/', ':', ' (', ') ', '\n', ' $ ', '; ')
  const prose = fc
    .array(fc.tuple(fc.oneof(word, price, variable), separator), {minLength: 1, maxLength: 30})
    .map((parts) => parts.map(([token, sep]) => token + sep).join(''))

  it('text of words, prices ($5, $1.50) and variables ($HOME, $(pwd)) holds no formula', () => {
    fc.assert(
      fc.property(prose, (text) => {
        expect(formulas(text)).toEqual([])
      }),
      {numRuns: 300}
    )
  })
})

describe('pulled back (kb tree to GFM)', () => {
  it('writes $...$ where the strict rule reads it back, else $$...$$, and display formulas as $$ blocks', () => {
    const tree = {
      type: 'root' as const,
      children: [
        {
          type: 'paragraph' as const,
          children: [
            {type: 'text' as const, value: 'A '},
            {type: 'inlineMath' as const, value: 'x^2'},
            {type: 'text' as const, value: ' and '},
            {type: 'inlineMath' as const, value: 'y'},
            {type: 'text' as const, value: 's.'}
          ]
        },
        {type: 'math' as const, value: '\\sum_i i'}
      ]
    }
    const {markdown} = kbTreeToGfm(tree as never)
    expect(markdown).toBe('A $x^2$ and $$y$$s.\n\n$$\n\\sum_i i\n$$\n')
    expect(formulas(markdown)).toEqual([
      ['inline', 'x^2'],
      ['inline', 'y'],
      ['display', '\\sum_i i']
    ])
  })
})

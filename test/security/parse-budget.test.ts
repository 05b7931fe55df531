/**
 * The parse budget's pre-scan (src/trust/parse-budget.ts), by properties:
 * bodies shaped like real documents never trip it, every run of hostile
 * delimiters trips it before 10 KB, and lists nested by indentation trip it
 * past 100 columns; YAML readers never throw.
 */
import fc from 'fast-check'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import {overBudgetRule, parseKb} from '../../src/dialect/index.js'
import {maxContainerIndent, overBudget, readYaml} from '../../src/trust/index.js'

const word = fc.stringMatching(/^[a-z]{1,10}$/)
/** Inline text as people write it: words, now and then emphasised, struck, linked or in code. */
const inline = fc
  .array(
    fc.oneof(
      {weight: 8, arbitrary: word},
      word.map((w) => `*${w}*`),
      word.map((w) => `**${w}**`),
      word.map((w) => `~~${w}~~`),
      word.map((w) => `_${w}_`),
      word.map((w) => `[${w}](https://example.com/${w})`),
      word.map((w) => `\`${w}\``)
    ),
    {minLength: 1, maxLength: 60}
  )
  .map((words) => words.join(' '))
/** A block as people write it: a paragraph, a heading, a list, a table, a fenced code block. */
const block = fc.oneof(
  inline,
  inline.map((text) => `## ${text}`),
  fc.array(inline, {minLength: 1, maxLength: 40}).map((items) => items.map((item) => `- ${item}`).join('\n')),
  fc
    .array(fc.tuple(inline, inline), {minLength: 1, maxLength: 80})
    .map((rows) => ['| a | b |', '| --- | --- |', ...rows.map(([a, b]) => `| ${a} | ${b} |`)].join('\n')),
  fc.array(word, {maxLength: 30}).map((lines) => ['```', ...lines, '```'].join('\n'))
)

describe('the parse budget', () => {
  it('property: documents shaped like real ones (up to 400 blocks) are never over it', () => {
    fc.assert(
      fc.property(fc.array(block, {maxLength: 400}), (blocks) => {
        expect(overBudget(blocks.join('\n\n'))).toBeUndefined()
      }),
      {numRuns: 60}
    )
  })

  it('property: a paragraph repeating any delimiter between other characters is over it before 10 KB, and kept as text', () => {
    const unit = fc
      .tuple(
        fc.stringMatching(/^[a ]{1,3}$/),
        fc.constantFrom('*', '_', '~', '[', ']'),
        fc.stringMatching(/^[a ]{0,3}$/)
      )
      .map((parts) => parts.join(''))
    fc.assert(
      fc.property(unit, (piece) => {
        const body = 'x' + piece.repeat(Math.ceil(10_000 / piece.length))
        expect(overBudget(body)).toBeDefined()
        const file = new VFile({value: body})
        const tree = parseKb(file)
        expect(tree.children).toEqual([expect.objectContaining({type: 'html', value: body})])
        expect(file.messages.map((message) => message.ruleId)).toEqual([overBudgetRule])
      }),
      {numRuns: 40}
    )
  })

  it('property: a list nested by indentation is over it exactly when a line opens an item past the limit', () => {
    fc.assert(
      fc.property(fc.integer({min: 1, max: 120}), fc.integer({min: 2, max: 4}), (levels, width) => {
        const body = Array.from({length: levels}, (_, level) => `${' '.repeat(level * width)}- a`).join('\n')
        const deepest = (levels - 1) * width
        expect(overBudget(body) !== undefined).toBe(deepest > maxContainerIndent)
      })
    )
  })

  it('property: readYaml never throws, whatever the text', () => {
    const yamlish = fc
      .array(
        fc.constantFrom('a', ':', ' ', '\n', '-', '[', ']', '{', '}', '&a', '*a', '!t', '? ', ',', '"', "'", '#'),
        {
          maxLength: 400
        }
      )
      .map((parts) => parts.join(''))
    fc.assert(
      fc.property(yamlish, (text) => {
        const read = readYaml(text)
        if (!read.ok) expect(read.line).toBeGreaterThanOrEqual(1)
      }),
      {numRuns: 300}
    )
  })
})

import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {gfmToKb, parseKb, stringifyKb} from '../../src/dialect/index.js'

const root = join(import.meta.dirname, '../../fixtures/convert')
const cases = readdirSync(root).filter((name) => name.startsWith('gfm-to-kb-'))

/** A case's input file: `input.mdx` for an MDX document, else `input.md`. */
function inputOf(dir: string): string {
  return existsSync(join(dir, 'input.mdx')) ? 'input.mdx' : 'input.md'
}

/** Messages as fixtures record them: place and rule, not the wording. */
function summary(messages: ReturnType<typeof gfmToKb>['messages']) {
  return messages.map((m) => ({line: m.line, column: m.column, ruleId: m.ruleId}))
}

describe('gfmToKb fixtures', () => {
  it('has a case for every rule', () => {
    expect(cases.length).toBeGreaterThanOrEqual(12)
  })

  for (const name of cases) {
    it(name, () => {
      const dir = join(root, name)
      const file = inputOf(dir)
      const input = readFileSync(join(dir, file), 'utf8')
      const result = gfmToKb(input, {path: file})
      // Set KBSYNC_UPDATE_FIXTURES=1 to write missing expectations (review them before committing).
      if (process.env.KBSYNC_UPDATE_FIXTURES && !existsSync(join(dir, 'output.md'))) {
        writeFileSync(join(dir, 'output.md'), result.markdown)
        writeFileSync(join(dir, 'messages.json'), JSON.stringify(summary(result.messages), null, 2) + '\n')
      }
      expect(result.markdown).toBe(readFileSync(join(dir, 'output.md'), 'utf8'))
      expect(summary(result.messages)).toEqual(JSON.parse(readFileSync(join(dir, 'messages.json'), 'utf8')))
      for (const message of result.messages) expect(message.file).toBe(file)
      // The output is the dialect's canonical form: it parses back to a tree that writes it unchanged.
      expect(stringifyKb(parseKb(result.markdown))).toBe(result.markdown)
    })
  }
})

const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,7}$/)
const words = fc.array(word, {minLength: 1, maxLength: 5}).map((w) => w.join(' '))
const inline = fc.oneof(
  words,
  words.map((w) => `**${w}**`),
  words.map((w) => `*${w}*`),
  words.map((w) => `~~${w}~~`),
  words.map((w) => `\`${w}\``),
  words.map((w) => `[${w}](https://example.com/${w.replace(/ /g, '-')})`),
  words.map((w) => `<span>${w}</span>`),
  words.map((w) => `<mark data-color=red>${w}</mark>`),
  word.map((w) => `${w}[^${w}]`)
)
const paragraph = fc.array(inline, {minLength: 1, maxLength: 4}).map((parts) => parts.join(' '))
const block = fc.oneof(
  paragraph,
  fc.tuple(fc.integer({min: 1, max: 6}), words).map(([depth, text]) => `${'#'.repeat(depth)} ${text}`),
  fc
    .tuple(fc.constantFrom('NOTE', 'TIP', 'IMPORTANT', 'WARNING', 'CAUTION'), paragraph)
    .map(([kind, text]) => `> [!${kind}]\n> ${text}`),
  fc
    .array(fc.tuple(fc.constantFrom('- ', '- [ ] ', '- [x] ', '1. '), paragraph), {minLength: 1, maxLength: 3})
    .map((items) => items.map(([marker, text]) => marker + text).join('\n')),
  fc.tuple(words, words).map(([a, b]) => `| ${a} | ${b} |\n| --- | --- |\n| ${b} | ${a} |`),
  // A pipe inside code in a cell is escaped in GFM, and must stay escaped in the dialect (else the cell splits).
  fc.tuple(word, word).map(([a, b]) => `| \`${a}\\|${b}\` | ${b} |\n| --- | --- |\n| ${b} | x \`${a}\\|\` |`),
  words.map((w) => '```js\n' + w + '\n```'),
  words.map((w) => `<div class="x">${w}</div>`),
  word.map((w) => `[^${w}]: note ${w}`)
)
const document = fc.array(block, {minLength: 1, maxLength: 6}).map((blocks) => blocks.join('\n\n') + '\n')

describe('gfmToKb laws', () => {
  it('its output is a fixpoint of stringifyKb(parseKb(...))', () => {
    fc.assert(
      fc.property(document, (source) => {
        const {markdown} = gfmToKb(source)
        expect(stringifyKb(parseKb(markdown))).toBe(markdown)
      }),
      {numRuns: 120}
    )
  })

  it('fixture outputs are fixpoints too', () => {
    for (const name of cases) {
      const input = inputOf(join(root, name))
      const {markdown} = gfmToKb(readFileSync(join(root, name, input), 'utf8'), {path: input})
      expect(stringifyKb(parseKb(markdown))).toBe(markdown)
    }
  })

  it('never lets HTML outside the dialect through raw', () => {
    fc.assert(
      fc.property(document, (source) => {
        const {markdown} = gfmToKb(source)
        expect(markdown).not.toMatch(/(?<!\\)<(span|div class|script)/)
      }),
      {numRuns: 200}
    )
  })
})

/**
 * Docs-site syntax (`src/dialect/gfm-to-kb/site-syntax/`): laws over
 * generated documents (every container form nested in any order becomes
 * blocks, nothing of the syntax is left as text, the output is canonical),
 * the line numbers the line pre-passes keep, and hostile input (deep
 * nesting, long lines) that must neither throw nor take quadratic time.
 * The forms one by one are fixtures: `fixtures/convert/gfm-to-kb-admonition-*`,
 * `-mdx-*`, `-liquid-*`.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {gfmToKb, parseKb, stringifyKb} from '../../src/dialect/index.js'

const word = fc.stringMatching(/^[a-z]{1,8}$/)
const words = fc.array(word, {minLength: 1, maxLength: 4}).map((list) => list.join(' '))
const kind = fc.constantFrom('note', 'tip', 'info', 'warning', 'danger', 'caution', 'important', 'details')

/** A block of content; `depth` bounds the containers inside it. */
function block(depth: number): fc.Arbitrary<string> {
  const leaves = [words, words.map((w) => `- ${w}\n- ${w}`), words.map((w) => '```js\n:::tip ' + w + '\n!!! note\n```')]
  if (depth === 0) return fc.oneof(...leaves)
  const inner = fc.array(block(depth - 1), {minLength: 1, maxLength: 3}).map((blocks) => blocks.join('\n\n'))
  return fc.oneof(
    ...leaves,
    // Docusaurus / VitePress, the fence one colon longer than the containers inside (at most `depth` deep).
    fc.tuple(kind, fc.option(words), fc.boolean(), inner).map(([name, title, spaced, body]) => {
      const fence = ':'.repeat(3 + depth)
      return `${fence}${spaced ? ' ' : ''}${name}${title ? ' ' + title : ''}\n${body}\n${fence}`
    }),
    // MkDocs: the content indented four spaces.
    fc.tuple(fc.constantFrom('!!!', '???', '???+'), kind, fc.option(words), inner).map(([sign, name, title, body]) => {
      const indented = body.split('\n').map((line) => (line === '' ? '' : '    ' + line)).join('\n')
      return `${sign} ${name === 'details' ? 'note' : name}${title === null ? '' : ` "${title}"`}\n${indented}`
    })
  )
}

const documents = fc.array(block(3), {minLength: 1, maxLength: 4}).map((blocks) => blocks.join('\n\n') + '\n')

/** The lines of a dialect body outside code blocks. */
function prose(markdown: string): string[] {
  let code = false
  return markdown.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) code = !code
    return !code && !/^\s*```/.test(line)
  })
}

describe('docs-site containers, generated', () => {
  it('become blocks: no container syntax is left outside code, nothing is warned, and the output is canonical', () => {
    fc.assert(
      fc.property(documents, (source) => {
        const {markdown, messages} = gfmToKb(source, {path: 'doc.md'})
        expect(prose(markdown).filter((line) => /^\s*(?::::|!!!|\?\?\?)/.test(line))).toEqual([])
        expect(messages.map((m) => m.ruleId)).toEqual([])
        expect(stringifyKb(parseKb(markdown))).toBe(markdown)
      }),
      {numRuns: 150, seed: 17}
    )
  })

  it('keep code blocks inside them as they were', () => {
    const {markdown} = gfmToKb(':::tip\n```js\n:::tip x\n!!! note\n```\n:::\n')
    expect(markdown).toContain('```js\n:::tip x\n!!! note\n```')
  })
})

describe('line numbers', () => {
  it('a message after admonitions, MDX statements and comments points at the line the author wrote', () => {
    const source = ['import A from "a"', 'import {', '  B', '} from "b"', '', '{/* a', 'comment */}', '', '!!! note', '    text', '', ':::tip', 'x', ':::', '', '#### Deep'].join('\n')
    const {messages} = gfmToKb(source, {path: 'doc.mdx'})
    expect(messages.map((m) => [m.line, m.ruleId])).toEqual([[16, 'kb-heading-depth']])
  })
})

describe('hostile input', () => {
  it('300 nested MkDocs admonitions with titles: capped with an error at the limit, never thrown', () => {
    const source = Array.from({length: 300}, (_, i) => ' '.repeat(4 * i) + `!!! note "Level ${i}"`).join('\n') + '\n'
    const {markdown, messages} = gfmToKb(source)
    expect(messages.some((m) => m.ruleId === 'kb-nesting-too-deep' && m.fatal)).toBe(true)
    expect(markdown).toContain('**Level 0**')
  })

  it('an Obsidian callout with a title at the nesting limit is capped, never thrown', () => {
    const source = '>'.repeat(98) + ' [!tip] Title\n' + '>'.repeat(98) + ' text\n'
    expect(() => gfmToKb(source)).not.toThrow()
  })

  it('a broken export in MDX takes only its own lines, not the rest of the document', () => {
    const {markdown} = gfmToKb('export const x = {\n  a: 1\n\n# Still here\n\nText.\n', {path: 'doc.mdx'})
    expect(markdown).toContain('Still here')
    expect(markdown).toContain('Text.')
    expect(markdown).not.toContain('export')
  })

  it('long lines of white space after the markers cost linear time', () => {
    const spaces = ' '.repeat(100_000)
    for (const source of [`import${spaces}x\n`, `:::tip${spaces}x\n:::\n`, `!!! note${spaces}"\n`, `{{#include${spaces}x\n`, `{/*${spaces}\n`.repeat(3)]) {
      const started = performance.now()
      gfmToKb(source, {path: 'doc.mdx'})
      // Quadratic backtracking on 100,000 characters takes minutes; linear work, well under this.
      expect(performance.now() - started).toBeLessThan(5000)
    }
  })
})

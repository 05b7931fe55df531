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

/**
 * A block of content; `depth` bounds the containers inside it. A document
 * is written for one tool (`colon`: Docusaurus or VitePress, `mkdocs`), as
 * real trees are; Obsidian callouts and GitHub alerts go with either.
 */
function block(depth: number, family: 'colon' | 'mkdocs', quoted = false): fc.Arbitrary<string> {
  const leaves = [words, words.map((w) => `- ${w}\n- ${w}`), words.map((w) => '```js\n:::tip ' + w + '\n!!! note\n```')]
  if (depth === 0) return fc.oneof(...leaves)
  const inner = (inQuote: boolean) =>
    fc.array(block(depth - 1, family, inQuote), {minLength: 1, maxLength: 3}).map((blocks) => blocks.join('\n\n'))
  const container =
    family === 'colon'
      ? // The fence one colon longer than the containers inside (at most `depth` deep).
        fc
          .tuple(kind, fc.option(words), fc.boolean(), fc.constantFrom(':', '/'), inner(quoted))
          .map(([name, title, spaced, mark, body]) => {
            const fence = mark.repeat(3 + depth)
            // pymdownx blocks (`/// note | Title`) take their title after a bar.
            const titled = title ? (mark === '/' ? ' | ' : ' ') + title : ''
            return `${fence}${spaced ? ' ' : ''}${name}${titled}\n${body}\n${fence}`
          })
      : // The content indented four spaces (python-markdown reads no admonition inside a quote).
        fc
          .tuple(fc.constantFrom('!!!', '???', '???+'), kind, fc.option(words), inner(quoted))
          .map(([sign, name, title, body]) => {
            const indented = body
              .split('\n')
              .map((line) => (line === '' ? '' : '    ' + line))
              .join('\n')
            return `${sign} ${name === 'details' ? 'note' : name}${title === null ? '' : ` "${title}"`}\n${indented}`
          })
  return fc.oneof(
    ...leaves,
    ...(family === 'mkdocs' && quoted ? [] : [container]),
    // Inside a list item and inside a quote.
    inner(quoted).map(
      (body) =>
        '- item\n\n' +
        body
          .split('\n')
          .map((line) => (line === '' ? '' : '  ' + line))
          .join('\n')
    ),
    inner(true).map((body) =>
      body
        .split('\n')
        .map((line) => '> ' + line)
        .join('\n')
    ),
    fc
      .tuple(fc.constantFrom('[!NOTE]', '[!tip] Title', '[!faq]- Why', '[!todo]+'), words)
      .map(([marker, text]) => `> ${marker}\n> ${text}`),
    // MkDocs content tabs.
    ...(family === 'mkdocs' && !quoted
      ? [
          fc.tuple(words, inner(quoted)).map(
            ([label, body]) =>
              `=== "${label}"\n\n` +
              body
                .split('\n')
                .map((line) => (line === '' ? '' : '    ' + line))
                .join('\n')
          )
        ]
      : [])
  )
}

const documents = fc
  .constantFrom('colon' as const, 'mkdocs' as const)
  .chain((family) => fc.array(block(3, family), {minLength: 1, maxLength: 4}))
  .map((blocks) => blocks.join('\n\n') + '\n')

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
        expect(prose(markdown).filter((line) => /^\s*(?::::|!!!|\?\?\?|\/\/\/|===)/.test(line))).toEqual([])
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
    const source = [
      'import A from "a"',
      'import {',
      '  B',
      '} from "b"',
      '',
      '{/* a',
      'comment */}',
      '',
      '!!! note',
      '    text',
      '',
      ':::tip',
      'x',
      ':::',
      '',
      '#### Deep'
    ].join('\n')
    const {messages} = gfmToKb(source, {path: 'doc.mdx'})
    expect(messages.map((m) => [m.line, m.ruleId])).toEqual([[16, 'kb-heading-depth']])
  })
})

describe('line numbers where closing lines were added', () => {
  it('messages inside, between and after nested MkDocs blocks keep the lines the author wrote', () => {
    const source = [
      '!!! note',
      '    - item',
      '',
      '      !!! tip',
      '          #### In the inner block',
      '    #### In the outer block',
      '#### After both',
      '!!! custom',
      '    x'
    ].join('\n')
    const {messages} = gfmToKb(source)
    expect(messages.map((m) => [m.line, m.ruleId])).toEqual([
      [5, 'kb-heading-depth'],
      [6, 'kb-heading-depth'],
      [7, 'kb-heading-depth'],
      [8, 'kb-admonition-unknown']
    ])
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
    for (const source of [
      `import${spaces}x\n`,
      `:::tip${spaces}x\n:::\n`,
      `!!! note${spaces}"\n`,
      `{{#include${spaces}x\n`,
      `{/*${spaces}\n`.repeat(3)
    ]) {
      const started = performance.now()
      gfmToKb(source, {path: 'doc.mdx'})
      // Quadratic backtracking on 100,000 characters takes minutes; linear work, well under this.
      expect(performance.now() - started).toBeLessThan(5000)
    }
  })

  it('long lines of white space in a MyST directive cost linear time', () => {
    const spaces = ' '.repeat(100_000)
    for (const source of [`\`\`\`{note}${spaces}x${spaces}y\n\`\`\`\n`, `:::{warning}${spaces}x${spaces}y\n:::\n`]) {
      const started = performance.now()
      const {markdown} = gfmToKb(source, {path: 'doc.md'})
      // Quadratic backtracking on 100,000 characters takes minutes; linear work, well under this.
      expect(performance.now() - started).toBeLessThan(5000)
      expect(markdown).toContain('x')
    }
  })
})

/**
 * A document's head and body read line by line from its start (`text-lines.ts`)
 * are those of the whole text split into lines: the properties hold the new
 * reading to the old one (kept here as the reference) on texts made of the
 * lines documents open with.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {bodyOf, readDocumentHead, type DocumentHead} from '../../src/local/body.js'
import {isBlank, TextLines} from '../../src/local/text-lines.js'

/** The body as it was made before: the whole text split, lines blanked, joined again. */
function referenceBody(head: DocumentHead, dropHeading: boolean): {body: string; empty: boolean} {
  const lines = head.text.split('\n')
  for (let index = 0; index < head.frontMatter.lineCount; index++) lines[index] = ''
  if (dropHeading && head.heading)
    for (let index = 0; index < head.heading.lineCount; index++) lines[head.heading.line - 1 + index] = ''
  const body = lines.join('\n')
  return {body, empty: body.trim() === ''}
}

const lineOf = fc.constantFrom(
  '---',
  '...',
  'title: "A title"',
  'kb_id: abc',
  '',
  '   ',
  '\t',
  '# Title',
  '## Deeper {#anchor}',
  'Setext title',
  '===',
  '---',
  '<!-- a comment',
  'still the comment -->',
  '<!-- one line -->',
  'import X from "./x"',
  'export const a = 1',
  'Some text with the words.',
  '- a list item',
  '\r',
  '\u00a0',
  '\u2028'
)
const textOf = fc
  .tuple(fc.array(lineOf, {maxLength: 12}), fc.boolean(), fc.boolean())
  .map(([lines, crlf, trailing]) => lines.join(crlf ? '\r\n' : '\n') + (trailing ? '\n' : ''))

describe('reading a document from its first lines', () => {
  it('gives the head and the body the whole text split into lines gave', () => {
    fc.assert(
      fc.property(textOf, fc.boolean(), fc.constantFrom('a.md', 'b.mdx'), (text, dropHeading, file) => {
        const head = readDocumentHead(text, file, [])
        expect(bodyOf(head, dropHeading)).toEqual(referenceBody(head, dropHeading))
        // The block between the fences (the first opens after blank lines, if any), as the split lines joined gave it.
        if (head.frontMatter.present) {
          const lines = head.text.split('\n')
          const fence = lines.findIndex((line) => !/^[ \t]*\r?$/.test(line))
          expect(lines[fence]).toMatch(/^---[ \t]*\r?$/)
          expect(head.frontMatter.yaml).toBe(lines.slice(fence + 1, head.frontMatter.lineCount - 1).join('\n'))
        }
      }),
      // A front matter after a line of spaces (Astro and Hugo read it as one).
      {numRuns: 3000, examples: [['   \n---\ntitle: "A title"\n---', false, 'a.md']]}
    )
  })

  it('finds the lines of split("\\n"), their starts and the blank ones', () => {
    fc.assert(
      fc.property(fc.string({unit: fc.constantFrom('a', ' ', '\n', '\r', '\u3000')}), (text) => {
        const lines = new TextLines(text)
        const split = text.split('\n')
        for (let index = 0; index <= split.length; index++) {
          expect(lines.has(index)).toBe(index < split.length)
          expect(lines.line(index)).toBe(split[index] ?? '')
        }
        expect(lines.start(split.length - 1)).toBe(text.length - split.at(-1)!.length)
        expect(isBlank(text)).toBe(text.trim() === '')
      })
    )
  })
})

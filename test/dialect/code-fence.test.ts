/**
 * Code blocks holding a fence line (issue 18): always written in a
 * three-backtick fence, the dialect's only one, with a zero-width space
 * before the backticks of a fence line inside, which a parse takes away.
 */
import fc from 'fast-check'
import type {Code, Root} from 'mdast'
import {describe, expect, it} from 'vitest'
import {guardFenceLines, unguardFenceLines} from '../../plugins/code-fence.js'
import {gfmToKb, kbToGfm, parseKb, stringifyKb} from '../../src/dialect/index.js'

const codeTree = (value: string, lang?: string): Root => ({
  type: 'root',
  children: [{type: 'code', lang: lang ?? null, meta: null, value}]
})
const valueOf = (tree: Root) => (tree.children[0] as Code).value

/** The lines between a body's first fence and its last, as a parser that knows only three-backtick fences sees them. */
const innerLines = (markdown: string) => markdown.trimEnd().split('\n').slice(1, -1)

describe('code blocks holding fence lines', () => {
  it('are written in a three-backtick fence, the inner fence lines guarded', () => {
    const written = stringifyKb(codeTree('Install it:\n\n```sh\nnpm i\n```\n  ````', 'markdown'))
    expect(written).toBe('```markdown\nInstall it:\n\n\u200B```sh\nnpm i\n\u200B```\n  \u200B````\n```\n')
    expect(valueOf(parseKb(written))).toBe('Install it:\n\n```sh\nnpm i\n```\n  ````')
  })

  it('a body the platform returns with guarded lines is written back byte for byte', () => {
    const body = 'Example:\n\n```\n\u200B```js\nx()\n\u200B```\n```\n'
    expect((parseKb(body).children[1] as Code).value).toBe('```js\nx()\n```')
    expect(stringifyKb(parseKb(body))).toBe(body)
  })

  it('a run of backticks inside a line keeps the fence at three', () => {
    expect(stringifyKb(codeTree("const f = '````'"))).toBe("```\nconst f = '````'\n```\n")
  })

  it('any code text round-trips, and no line inside the fence starts with backticks', () => {
    const line = fc
      .array(fc.constantFrom('`', '```', '````', '\u200B', ' ', '\t', 'a', '~~~'), {maxLength: 6})
      .map((parts) => parts.join(''))
    const value = fc.array(line, {minLength: 1, maxLength: 6}).map((lines) => lines.join('\n'))
    fc.assert(
      fc.property(value, (text) => {
        const written = stringifyKb(codeTree(text, 'md'))
        expect(written.startsWith('```md\n')).toBe(true)
        expect(innerLines(written).some((l) => /^[ \t]*```/.test(l))).toBe(false)
        expect(valueOf(parseKb(written))).toBe(text)
        expect(unguardFenceLines(guardFenceLines(text))).toBe(text)
      }),
      {numRuns: 500, seed: 18}
    )
  })
})

describe('kbToGfm, for readers on GitHub', () => {
  it('writes a fence inside code with a longer outer fence, no guard, and reads back to the same tree', () => {
    const body = 'Example:\n\n```md\n\u200B```js\nx()\n\u200B```\n```\n'
    const gfm = kbToGfm(body).markdown
    expect(gfm).toBe('Example:\n\n````md\n```js\nx()\n```\n````\n')
    expect(gfmToKb(gfm).markdown).toBe(body)
  })
})

/**
 * A provisional create (a link cycle's document, before every document it
 * links to has an id) writes its body with those links as their text. The
 * document holds the template of its whole render, not its tree: the
 * provisional body is cut from the template where the cut reads as the tree
 * renders, byte for byte (the law below), and the tree renders it elsewhere.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import type {LocalNode} from '../../src/local/index.js'
import {bodyTreeParses} from '../../src/local/markdown.js'
import {contextOf, documentOf} from './slot-documents.js'
import {releaseRender, renderTemplate, renderWithoutUnknownLinks} from '../../src/sync/shared/render.js'
import {holdTemplate} from '../../src/sync/shared/render-slots.js'
import {fillWithoutUnknownLinks} from '../../src/sync/shared/unknown-links-as-text.js'

/** `node` as a provisional create finds it: the template of its whole render held, no tree, no body. */
function templated(node: LocalNode): LocalNode {
  const template = renderTemplate(node, contextOf(new Map()))!
  releaseRender(node)
  holdTemplate(node, template)
  delete node.body
  return node
}

const targets = ['a.md', 'b.md', 'c/d.md', 'topic/']
// Words that start or end something out of a tag: blocks at a line start, emphasis, literal links, entities.
const word = fc.constantFrom(
  ' ',
  '  ',
  ...'text x 7 AT&T &amp ; * _ ~ ` # 1. 2) - + ! | \\ < > ( ) . : é 配置 、 🙂 " www. www http ://x.org a@b @ = ---'.split(
    ' '
  )
)
const linkText = fc.oneof(
  fc.array(word, {minLength: 1, maxLength: 4}).map((parts) => parts.join('').replace(/[[\]\n]/g, '') || 'x'),
  fc.constantFrom('`code`', '*em*', '**strong**', '_em_', '(aside)', 'two words', '```x```', '*', '1. Intro')
)
const link = fc
  .tuple(linkText, fc.constantFrom(...targets, 'b.md#part'))
  .map(([text, target]) => `[${text}](${target})`)
const line = fc
  .array(
    fc.oneof(
      word,
      link,
      link,
      link.map((l) => `*${l}*`)
    ),
    {minLength: 1, maxLength: 6}
  )
  .map((parts) => parts.join(''))
const block = fc.oneof(
  line,
  line.map((l) => `## ${l}`),
  line.map((l) => `- ${l}\n- ${l}`),
  line.map((l) => `> ${l}`),
  fc.tuple(line, line).map(([a, b]) => `${a}\n${b}`),
  fc
    .tuple(line, line)
    .map(([a, b]) => `| one | two |\n| --- | --- |\n| ${a.replace(/\|/g, '')} | ${b.replace(/\|/g, '')} |`)
)
const body = fc.array(block, {minLength: 1, maxLength: 4}).map((blocks) => blocks.join('\n\n') + '\n')
const idMap = fc
  .tuple(...targets.map(() => fc.option(fc.stringMatching(/^[A-Z0-9]{1,11}$/), {nil: undefined})))
  .map((chosen) => new Map(targets.flatMap((target, n) => (chosen[n] === undefined ? [] : [[target, chosen[n]!]]))))

describe('a provisional body from a template', () => {
  it('is the text the tree renders to, links without an id as their text, or none (law)', () => {
    let cut = 0
    let declined = 0
    fc.assert(
      fc.property(body, idMap, (text, ids) => {
        let expected
        try {
          expected = renderWithoutUnknownLinks(documentOf(text), contextOf(ids))
        } catch {
          return // A body the dialect refuses renders no tree either.
        }
        const node = templated(documentOf(text))
        const template = renderTemplate(node, contextOf(new Map()))!
        const filled = fillWithoutUnknownLinks(template, (target) => ids.get(target))
        if (filled === undefined) {
          declined++
          return
        }
        expect(filled.body).toBe(expected.body)
        expect(filled.missingLinks).toEqual(expected.missingLinks)
        cut++
      }),
      {numRuns: 600}
    )
    expect(cut).toBeGreaterThan(150)
    expect(declined).toBeGreaterThan(30)
  }, 240_000)

  it('parses nothing where every link can be cut out of its tag', () => {
    const lines = Array.from({length: 40}, (_, n) => `- See [page ${n}](${targets[n % 3]}) and [\`it\`](b.md).`)
    const node = templated(documentOf(`Intro, [配置](c/d.md)、and [*this*](a.md).\n\n${lines.join('\n')}\n`))
    const before = bodyTreeParses()
    const rendered = renderWithoutUnknownLinks(node, contextOf(new Map([['a.md', 'A1']])))
    expect(bodyTreeParses()).toBe(before)
    expect(rendered.body).toContain('Intro, 配置、and <a data-node="articleLink" data-article-id="A1">*this*</a>.')
    expect(rendered.body).toContain('- See page 1 and `it`.')
    expect(rendered.missingLinks).toHaveLength(1 + 40 + 40 - 14)
  })

  it('renders from the tree where a link cannot be cut (a list item would start)', () => {
    const node = templated(documentOf('- [1. Intro](a.md)\n'))
    node.body = '- [1. Intro](a.md)\n'
    const before = bodyTreeParses()
    const rendered = renderWithoutUnknownLinks(node, contextOf(new Map()))
    expect(bodyTreeParses()).toBe(before + 1)
    expect(rendered.body).toBe('- 1\\. Intro\n')
  })
})

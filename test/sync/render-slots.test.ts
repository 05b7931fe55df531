/**
 * A document created provisionally keeps the template of its whole render
 * (its text with the link ids left out), not its tree: the whole write
 * fills the ids in without parsing the body again, and gives the very text
 * the tree renders to (the law below, over bodies with links anywhere:
 * tables, emphasis, headings, lists, quotes, line starts, odd characters).
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {bodyTreeParses} from '../../src/local/markdown.js'
import {contextOf, documentOf} from './slot-documents.js'
import {releaseRender, renderBody, renderTemplate} from '../../src/sync/shared/render.js'
import {fillTemplate, heldTemplate, holdTemplate} from '../../src/sync/shared/render-slots.js'
import {keepOrRelease, ProvisionalHold} from '../../src/sync/push/provisional-trees.js'
import type {RunState} from '../../src/sync/push/item-step.js'

const targets = ['a.md', 'b.md', 'c/d.md', 'topic/']
const word = fc.constantFrom(
  'text',
  'x',
  'AT&T',
  '*',
  '_',
  '`',
  '#',
  '1.',
  '-',
  '+',
  '!',
  '|',
  '\\',
  '<',
  '>',
  '&amp;',
  '[',
  ']',
  ' ',
  'é',
  '🙂',
  '"'
)
const linkText = fc
  .array(word, {minLength: 1, maxLength: 4})
  .map((parts) => parts.join('').replace(/[[\]\n]/g, '') || 'x')
const link = fc
  .tuple(linkText, fc.constantFrom(...targets, 'b.md#part'))
  .map(([text, target]) => `[${text}](${target})`)
const inline = fc.array(
  fc.oneof(
    word,
    link,
    link.map((l) => `*${l}*`),
    link.map((l) => `**${l}**`)
  ),
  {
    minLength: 1,
    maxLength: 8
  }
)
const line = inline.map((parts) => parts.join(''))
const block = fc.oneof(
  line,
  line.map((l) => `## ${l}`),
  line.map((l) => `- ${l}\n- ${l}`),
  line.map((l) => `> ${l}`),
  fc
    .tuple(line, line)
    .map(([a, b]) => `| one | two |\n| --- | --- |\n| ${a.replace(/\|/g, '')} | ${b.replace(/\|/g, '')} |`)
)
const body = fc.array(block, {minLength: 1, maxLength: 5}).map((blocks) => blocks.join('\n\n') + '\n')
// Ids as the platform gives them, and others: any length, characters an attribute must escape (then the tree renders).
const id = fc.oneof(fc.stringMatching(/^[A-Z0-9]{1,14}$/), fc.string({minLength: 1, maxLength: 6}))
const idMap = fc
  .tuple(...targets.map(() => fc.option(id, {nil: undefined})))
  .map((chosen) => new Map(targets.flatMap((target, n) => (chosen[n] === undefined ? [] : [[target, chosen[n]!]]))))

describe('a whole render from a template', () => {
  it('is the text the tree renders to, whatever the ids (law)', () => {
    let compared = 0
    fc.assert(
      fc.property(body, idMap, fc.boolean(), (text, ids, notice) => {
        let expected
        try {
          expected = renderBody(documentOf(text), contextOf(ids, notice))
        } catch {
          return // A body the dialect refuses renders no tree either.
        }
        const node = documentOf(text)
        const template = renderTemplate(node, contextOf(new Map(), notice))!
        expect(template).toBeDefined()
        releaseRender(node)
        holdTemplate(node, template)
        delete node.body
        const before = bodyTreeParses()
        const filled = fillTemplate(template, (target) => ids.get(target))
        // An id the attribute would escape: the template declines, the tree renders (parsed again).
        if (filled === undefined) return
        const rendered = renderBody(node, contextOf(ids, notice))
        expect(bodyTreeParses()).toBe(before)
        expect(rendered).toEqual(expected)
        compared++
      }),
      {numRuns: 120}
    )
    expect(compared).toBeGreaterThan(60)
  }, 120_000)

  it('is made once, at the provisional create, and then the tree and the body are let go of', () => {
    const lines = Array.from({length: 300}, (_, n) => `- See [page ${n}](${targets[n % 3]}) and \`code\`.`)
    const node = documentOf(`Intro.\n\n${lines.join('\n')}\n`)
    const run: Partial<RunState> = {provisionalTrees: new ProvisionalHold()}
    const context = contextOf(new Map([['a.md', 'A1']]))
    keepOrRelease(run as RunState, node, context)
    expect(node.tree).toBeUndefined()
    expect(node.body).toBeUndefined()
    expect(heldTemplate(node)).toBeDefined()
    const before = bodyTreeParses()
    const whole = renderBody(
      node,
      contextOf(
        new Map([
          ['a.md', 'A1'],
          ['b.md', 'B2'],
          ['c/d.md', 'C3']
        ])
      )
    )
    expect(bodyTreeParses()).toBe(before)
    expect(whole.missingLinks).toEqual([])
    expect(whole.body).toContain('- See <a data-node="articleLink" data-article-id="C3">page 2</a> and `code`.')
    // Written whole: the room it held goes to the next.
    run.provisionalTrees!.release(node.path)
    expect(run.provisionalTrees!.templates.heldNodes).toBe(0)
  })

  it('is not used once what else the body renders with has changed (the notice): the tree renders', () => {
    const node = documentOf('See [a](a.md).\n')
    holdTemplate(node, renderTemplate(node, contextOf(new Map()))!)
    const withNotice = renderBody(node, contextOf(new Map([['a.md', 'A1']]), true))
    expect(withNotice.body).toContain('Published from git.')
    expect(withNotice.body).toContain('data-article-id="A1"')
  })
})

/**
 * The proven class of pulled bodies (`src/sync/shared/proven-body.ts`):
 * a body in it is written without the read-back, so this property is its
 * proof. For random platform bodies of prose, headings, lists, tables,
 * code, quotes, emphasis, article links, images and external links, every
 * one whose localized tree is in the class reads back (as push parses the
 * file, references restored) to the platform's own tree, with no message,
 * and with the references and URLs the writer tracked, at the same lines
 * and columns; the tree handed over to the check is the parse's own. A
 * writer with a bug fails the property; a body outside the class still goes
 * through the read-back, which catches what it changes.
 */
import fc from 'fast-check'
import type {Root} from 'mdast'
import {visit} from 'unist-util-visit'
import {describe, expect, it} from 'vitest'
import {kbTreeToGfm, stringifyKb} from '../../src/dialect/index.js'
import {dropPositions, parseBodyFacts} from '../../src/local/index.js'
import {parseForPull, pullBody} from '../../src/sync/shared/document-body.js'
import {localizedTree, restoreTree, type LocalizeContext} from '../../src/sync/shared/localize.js'
import {sameTree} from '../../src/sync/shared/proof.js'
import {inProvenClass, provenBody, provenTree, type ProvenBody} from '../../src/sync/shared/proven-body.js'

const context: LocalizeContext = {
  file: 'guides/setup/page.md',
  documentOf: (kind, id) =>
    id.startsWith('gone') ? undefined : `${kind === 'topic' ? id + '/_index' : 'docs/' + id}.md`,
  assetOf: (url) => (url.includes('nowhere') ? undefined : `guides/setup/img/${url.split('/').pop()}.png`)
}

const word = fc.constantFrom(
  'keeps',
  'Node',
  'région',
  'a',
  '1',
  '2024',
  'x-y',
  'end.',
  'so,',
  'ok!',
  'why?',
  '(b)',
  "it's"
)
const hazard = fc.constantFrom(':', ': ', '"q"', '/', '-', '.', '1.', '!', '?', ';', '-- ', ' - ', '  ', 'é', '漢')
const prose = fc
  .array(fc.oneof({weight: 5, arbitrary: word}, {weight: 2, arbitrary: hazard}), {minLength: 1, maxLength: 6})
  .map((parts) => parts.join(' '))
// Lines of a paragraph, some starting with what may open a construct there: a list marker, a number, a rule, a quote.
const line = fc
  .tuple(
    fc.oneof(
      {weight: 3, arbitrary: fc.constant('')},
      {weight: 1, arbitrary: fc.constantFrom('- ', '1. ', '2) ', '-- ', '--- ', '"q" ', ': ', '(b) ', '> ')}
    ),
    fc.array(word, {minLength: 1, maxLength: 4})
  )
  .map(([start, words]) => start + words.join(' '))
/** Prose whose lines break, as a paragraph's text. */
const lines = fc
  .tuple(
    fc.array(line, {minLength: 2, maxLength: 4}),
    fc.constantFrom('\n', '\n', '\n\n'),
    // A break at either end: the line goes on after, or before, its neighbour (a link, emphasis, code).
    fc.constantFrom('', '', '\n'),
    fc.constantFrom('', '', '\n')
  )
  .map(([parts, between, start, end]) => ({type: 'text', value: start + parts.join(between) + end}))
const text = prose.map((value) => ({type: 'text', value}))
const id = fc.constantFrom('a1', 'b2', 'gone3', 'Xy_9')
const image = fc
  .tuple(fc.constantFrom('https://files.example/f/1', 'https://files.example/nowhere'), prose)
  .map(([url, alt]) => ({type: 'image', url, title: null, alt}))
const phrasing = fc.oneof(
  {weight: 5, arbitrary: text},
  {weight: 1, arbitrary: text.map((child) => ({type: 'emphasis', children: [child]}))},
  {weight: 1, arbitrary: text.map((child) => ({type: 'strong', children: [child]}))},
  {weight: 1, arbitrary: fc.constantFrom('npm i', 'a b', 'x-1').map((value) => ({type: 'inlineCode', value}))},
  {
    weight: 2,
    arbitrary: fc.tuple(fc.boolean(), id, text).map(([topic, target, child]) => ({
      type: 'articleLink',
      ...(topic ? {topicId: target} : {articleId: target}),
      children: [child]
    }))
  },
  {weight: 1, arbitrary: image},
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('https://example.com/a', 'https://example.com', 'docs/other.md'),
        // A link around an image: a badge.
        fc.oneof({weight: 3, arbitrary: text}, {weight: 1, arbitrary: image})
      )
      .map(([url, child]) => ({type: 'link', url, title: null, children: [child]}))
  }
)
const paragraph = fc
  .array(fc.oneof({weight: 3, arbitrary: phrasing}, {weight: 1, arbitrary: lines}), {minLength: 1, maxLength: 5})
  .map((children) => ({type: 'paragraph', children}))
const item = paragraph.map((child) => ({type: 'listItem', spread: false, checked: null, children: [child]}))
const list = fc
  .tuple(
    fc.boolean(),
    fc.array(item, {minLength: 1, maxLength: 3}),
    fc.option(fc.array(item, {minLength: 1, maxLength: 2}))
  )
  .map(([ordered, items, nested]) => {
    if (nested) items[0]!.children.push({type: 'list', ordered: false, spread: false, children: nested} as never)
    return {type: 'list', ordered, spread: false, ...(ordered ? {start: 1} : {}), children: items}
  })
const cell = fc.array(phrasing, {minLength: 1, maxLength: 2}).map((children) => ({type: 'tableCell', children}))
const table = fc.array(fc.array(cell, {minLength: 2, maxLength: 2}), {minLength: 1, maxLength: 3}).map((rows) => ({
  type: 'table',
  align: [null, null],
  children: rows.map((children) => ({type: 'tableRow', children}))
}))
const block = fc.oneof(
  {weight: 4, arbitrary: paragraph},
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({min: 1, max: 3}), text)
      .map(([depth, child]) => ({type: 'heading', depth, children: [child]}))
  },
  {weight: 2, arbitrary: list},
  {weight: 1, arbitrary: table},
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('js', null), fc.constantFrom('const a = 1', 'x [a](b.md) `c`', 'line\n\n  two'))
      .map(([lang, value]) => ({type: 'code', lang, meta: null, value}))
  },
  {weight: 1, arbitrary: paragraph.map((child) => ({type: 'blockquote', children: [child]}))},
  {weight: 1, arbitrary: fc.constant({type: 'thematicBreak'})}
)
/** A platform body: a random dialect tree as the platform stores it (`stringifyKb`). */
const platformBody = fc
  .array(block, {minLength: 1, maxLength: 6})
  .map((children) => stringifyKb({type: 'root', children} as Root))

/** Whether some text of `tree` breaks a line. */
function hasLineBreak(tree: Root): boolean {
  let found = false
  visit(tree, 'text', (node) => {
    found ||= node.value.includes('\n')
  })
  return found
}

/** The localized tree of `body` and what localizing it found: the input of both the read-back and the proven class. */
function localized(body: string) {
  const {tree: parsed} = parseForPull(body)
  dropPositions(parsed)
  return {parsed, ...localizedTree(parsed, context)}
}

/**
 * Whether the proven conversion `write` gives of `body` is what the read-back finds (true for a body outside the
 * class: the read-back proves it as ever).
 */
function provenAsReadBack(body: string, linesBefore: number, write = provenBody): boolean {
  const {parsed, tree: local, origins} = localized(body)
  const proven: ProvenBody | undefined = write(local, linesBefore)
  if (proven === undefined) return true
  const read = parseBodyFacts('\n'.repeat(linesBefore) + proven.text, context.file)
  expect(read.facts.messages).toEqual([])
  expect(read.facts.blank).toBeUndefined()
  expect(proven.refs).toEqual(read.facts.refs)
  expect(proven.urls).toEqual(read.facts.urls)
  dropPositions(read.tree)
  // The tree handed over to the check is the parse's own.
  if (!sameTree(provenTree(local), read.tree)) return false
  restoreTree(read.tree, origins)
  return sameTree(read.tree, parsed) && proven.text === kbTreeToGfm(local).markdown
}

/** Whether the property fails for the proven conversion `write` (a planted bug) on some of 400 bodies. */
function caught(write: typeof provenBody): boolean {
  return fc.check(
    fc.property(platformBody, (body) => provenAsReadBack(body, 0, write)),
    {numRuns: 400}
  ).failed
}

describe('the proven class of pulled bodies', () => {
  // 600 bodies, each parsed and read back: some 20 s on a loaded machine.
  it('reads back, for every body in it, to the platform tree with the tracked references', {timeout: 120_000}, () => {
    let proven = 0
    let withImages = 0
    let withBreaks = 0
    fc.assert(
      fc.property(platformBody, fc.integer({min: 0, max: 3}), (body, linesBefore) => {
        const {tree} = localized(body)
        if (inProvenClass(tree)) {
          proven++
          if (body.includes('files.example')) withImages++
          if (hasLineBreak(tree) && provenBody(tree, 0)) withBreaks++
        }
        expect(provenAsReadBack(body, linesBefore)).toBe(true)
      }),
      {numRuns: 600}
    )
    // Many generated bodies are in the class, images among them: the property is about them.
    expect(proven).toBeGreaterThan(90)
    expect(withImages).toBeGreaterThan(20)
    expect(withBreaks).toBeGreaterThan(4)
  })

  it('fails for a writer that joins the lines of a paragraph', () => {
    const buggy = (local: Root, linesBefore: number) => {
      const joined = structuredClone(local)
      visit(joined, 'text', (node) => {
        node.value = node.value.replace(/\n/g, ' ')
      })
      return provenBody(local, linesBefore) && provenBody(joined, linesBefore)
    }
    expect(caught(buggy)).toBe(true)
  })

  it('takes prose whose lines break, and leaves a heading or a cell with a break to the read-back', () => {
    const body = 'First line of it\nand the [next](https://example.com/a) one.\n\n- an item\n  that goes on\n'
    expect(inProvenClass(localized(body).tree)).toBe(true)
    expect(provenAsReadBack(body, 1)).toBe(true)
    const heading = {type: 'heading', depth: 2, children: [{type: 'text', value: 'two\nlines'}]}
    expect(inProvenClass({type: 'root', children: [heading]} as Root)).toBe(false)
    const spaced = {type: 'paragraph', children: [{type: 'text', value: 'a \nb'}]}
    expect(inProvenClass({type: 'root', children: [spaced]} as Root)).toBe(false)
  })

  it('fails for a writer that places an image one column off', () => {
    const buggy = (local: Root, linesBefore: number) => {
      const proven = provenBody(local, linesBefore)
      const shift = <T extends {kind: string; column?: number}>(ref: T): T =>
        ref.kind === 'image' ? {...ref, column: ref.column! + 1} : ref
      return proven && {...proven, refs: proven.refs.map(shift), urls: proven.urls.map(shift)}
    }
    expect(caught(buggy)).toBe(true)
  })

  it('fails for a writer with a bug in the class (emphasis written as strong)', () => {
    const buggy = (local: Root, linesBefore: number) => {
      const proven = provenBody(local, linesBefore)
      return proven && {...proven, text: proven.text.replace(/(^|[^*])\*([^*]+)\*/, '$1**$2**')}
    }
    expect(caught(buggy)).toBe(true)
  })

  it('leaves a body outside it to the read-back, which refuses a text that would change it', () => {
    // An emoji shortcode is text to the platform, an emoji to the read-back: the authoring form would change the body.
    const body = 'Say :smile: today.\n'
    expect(inProvenClass(localized(body).tree)).toBe(false)
    const pulled = pullBody(body, 'Title', context, {linesBefore: 0})
    expect(pulled.form).not.toBe('gfm')
  })

  it('takes a scale-bench article: links, lists, a table, code and a quote', () => {
    const body = [
      'Find the node. Role cluster.',
      '',
      '## Section 1',
      '',
      'It uses **the** and `code-1`.',
      '',
      '- Webhook limit.',
      '    - With step.',
      '',
      '| Setting | Value |',
      '| --- | --- |',
      '| key-0 | 154 |',
      '',
      '```js',
      'const page = 1',
      '```',
      '',
      '> Retry so find.',
      '',
      'See also: <a data-node="articleLink" data-article-id="a1">related 1</a>.'
    ].join('\n')
    expect(inProvenClass(localized(body).tree)).toBe(true)
    expect(provenAsReadBack(body, 2)).toBe(true)
    const pulled = pullBody(body, 'Title', context, {linesBefore: 2})
    expect(pulled.form).toBe('gfm')
    expect(pulled.parsed?.facts.refs).toEqual([{kind: 'link', url: '../../docs/a1.md', line: 22, column: 11}])
  })
})

/**
 * Laws 1 and 2 of the dialect.
 * 1. parse(stringify(tree)) equals tree (positions aside) for trees with
 *    every node type nested in every legal place (fast-check).
 * 2. stringify(parse(text)) is a fixpoint after one pass, for every fixture
 *    and every platform body.
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import fc from 'fast-check'
import type {BlockContent, List, ListItem, PhrasingContent, Root, RootContent, TableCell} from 'mdast'
import {describe, expect, it} from 'vitest'
import {colorTokens, type Attachment, type DetailsSummary} from '../../plugins/index.js'
import {parseKb, stringifyKb} from '../../src/dialect/index.js'
import {fixtureCases, fixturesRoot, platformBodies, stripPositions} from './helpers.js'

// Words that exercise escaping: underscores, things that look like tags, entities, markers.
const word = fc.oneof(
  fc.stringMatching(/^[a-z]{1,6}$/),
  fc.constantFrom(
    'x_y',
    'snake_case',
    '<u>',
    '</div>',
    '<mark data-color="red">',
    'a&b',
    '&amp;',
    '1.',
    '#',
    '*',
    '+',
    '[x]',
    'é',
    'a"b',
    "it's",
    '100%'
  )
)
const words = fc.array(word, {minLength: 1, maxLength: 4}).map((list) => list.join(' '))
const attributeValue = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/),
  fc.constantFrom('a"b', '<x>', "it's", 'a&amp;b', 'https://h/a/b?c=1&d=2')
)
const url = fc.oneof(
  fc.stringMatching(/^[a-f0-9]{8}-guid$/),
  fc.constantFrom('https://example.com/a_b/c.png', 'https://files.pyrus.com/services/kb?Id=1&x=2')
)
const color = fc.constantFrom(...colorTokens)

interface Context {
  link: boolean
  /** In a table cell or a heading: no hard breaks. */
  cell: boolean
}

/** Phrasing content: text first and last, texts with spaces between other nodes, so nothing merges or shifts. */
function phrasing(depth: number, context: Context): fc.Arbitrary<PhrasingContent[]> {
  const inner = (ctx: Context) => phrasing(depth - 1, ctx)
  const nodes: Array<fc.Arbitrary<PhrasingContent>> = [
    fc.stringMatching(/^[a-z<>_&*]{1,8}$/).map((value): PhrasingContent => ({type: 'inlineCode', value})),
    fc.tuple(words, url).map(([alt, src]): PhrasingContent => ({type: 'image', url: src, title: null, alt})),
    fc
      .tuple(words, url, fc.integer({min: 1, max: 2000}), fc.integer({min: 1, max: 2000}))
      .map(([alt, src, width, height]): PhrasingContent => ({
        type: 'image',
        url: src,
        title: null,
        alt,
        width,
        height
      })),
    attributeValue.map((identifier): PhrasingContent => ({type: 'anchorLink', identifier}))
  ]
  if (!context.cell) nodes.push(fc.constant<PhrasingContent>({type: 'break'}))
  if (depth > 0) {
    nodes.push(
      inner(context).map((children): PhrasingContent => ({type: 'emphasis', children})),
      inner(context).map((children): PhrasingContent => ({type: 'strong', children})),
      inner(context).map((children): PhrasingContent => ({type: 'delete', children})),
      inner(context).map((children): PhrasingContent => ({type: 'underline', children})),
      fc.tuple(color, inner(context)).map(([c, children]): PhrasingContent => ({type: 'mark', color: c, children}))
    )
    if (!context.link) {
      const linked = {...context, link: true}
      nodes.push(
        fc
          .tuple(url, inner(linked))
          .map(([href, children]): PhrasingContent => ({type: 'link', url: href, title: null, children})),
        fc
          .tuple(attributeValue, fc.boolean(), inner(linked))
          .map(([id, topic, children]): PhrasingContent =>
            topic ? {type: 'articleLink', topicId: id, children} : {type: 'articleLink', articleId: id, children}
          )
      )
    }
  }
  return fc
    .tuple(words, fc.array(fc.tuple(fc.oneof(...nodes), words), {maxLength: depth > 0 ? 3 : 1}))
    .map(([first, rest]) => {
      const children: PhrasingContent[] = [{type: 'text', value: first}]
      for (const [node, after] of rest) children.push(node, {type: 'text', value: ' ' + after})
      // A break at the very end of a run would be dropped: there is always text after it.
      return children
    })
}

const plain: Context = {link: false, cell: false}
const noBreak: Context = {link: false, cell: true}

function flow(depth: number): fc.Arbitrary<BlockContent[]> {
  const leaves: Array<fc.Arbitrary<BlockContent>> = [
    phrasing(2, plain).map((children): BlockContent => ({type: 'paragraph', children})),
    fc.tuple(fc.integer({min: 1, max: 3}), phrasing(1, noBreak)).map(([d, children]): BlockContent => ({
      type: 'heading',
      depth: d as 1 | 2 | 3,
      children
    })),
    fc.constant<BlockContent>({type: 'thematicBreak'}),
    fc
      .tuple(
        fc.constantFrom(null, 'js', 'html'),
        fc.array(fc.stringMatching(/^[a-z <>_/=]{0,12}$/), {minLength: 1, maxLength: 3})
      )
      .map(([lang, lines]): BlockContent => ({type: 'code', lang, meta: null, value: lines.join('\n')})),
    table(),
    fc.array(fc.tuple(url, words), {maxLength: 3}).map((items): BlockContent => ({
      type: 'attachmentsGroup',
      children: items.map(([u, name]): Attachment => ({type: 'attachment', url: u, name}))
    })),
    fc
      .tuple(url, fc.option(fc.integer({min: 1, max: 2000}), {nil: undefined}))
      .map(([u, width]): BlockContent =>
        width === undefined ? {type: 'drawio', url: u} : {type: 'drawio', url: u, width}
      ),
    url.map((u): BlockContent => ({type: 'video', url: u}))
  ]
  const all = [...leaves]
  if (depth > 0) {
    const inner = flow(depth - 1)
    all.push(
      inner.map((children): BlockContent => ({type: 'blockquote', children})),
      fc.tuple(color, inner).map(([c, children]): BlockContent => ({type: 'hintBlock', color: c, children})),
      fc.tuple(phrasing(1, plain), inner).map(([summary, children]): BlockContent => ({
        type: 'details',
        children: [{type: 'detailsSummary', children: summary} as DetailsSummary, ...children]
      })),
      list(depth - 1)
    )
  }
  return fc.array(fc.oneof(...all), {minLength: 1, maxLength: 3}).map(separate)
}

/** Adjacent lists of the same kind would merge when read back: keep a paragraph between them. */
function separate(nodes: BlockContent[]): BlockContent[] {
  const out: BlockContent[] = []
  for (const node of nodes) {
    const last = out[out.length - 1]
    if (last && last.type === 'list' && node.type === 'list')
      out.push({type: 'paragraph', children: [{type: 'text', value: 'between'}]})
    out.push(node)
  }
  return out
}

function list(depth: number): fc.Arbitrary<BlockContent> {
  const item = fc
    .tuple(phrasing(1, plain), depth > 0 ? fc.option(list(depth - 1), {nil: undefined}) : fc.constant(undefined))
    .map(([children, sub]): ListItem => ({
      type: 'listItem',
      spread: false,
      checked: null,
      children: sub ? [{type: 'paragraph', children}, sub as List] : [{type: 'paragraph', children}]
    }))
  return fc
    .tuple(fc.boolean(), fc.array(item, {minLength: 1, maxLength: 3}))
    .map(([ordered, children]): BlockContent => ({
      type: 'list',
      ordered,
      start: ordered ? 1 : null,
      spread: false,
      children
    }))
}

function table(): fc.Arbitrary<BlockContent> {
  const cell = phrasing(1, {link: false, cell: true}).map((children): TableCell => ({type: 'tableCell', children}))
  return fc.integer({min: 1, max: 3}).chain((columns) =>
    fc
      .tuple(
        fc.array(fc.constantFrom(null, 'left', 'right', 'center') as fc.Arbitrary<'left' | 'right' | 'center' | null>, {
          minLength: columns,
          maxLength: columns
        }),
        fc.array(fc.array(cell, {minLength: columns, maxLength: columns}), {minLength: 1, maxLength: 3})
      )
      .map(([align, rows]): BlockContent => ({
        type: 'table',
        align,
        children: rows.map((cells) => ({type: 'tableRow', children: cells}))
      }))
  )
}

const tree = flow(2).map((children): Root => ({type: 'root', children: children as RootContent[]}))

function withoutSpread<T>(tree: T): T {
  return JSON.parse(JSON.stringify(tree, (key, value) => (key === 'spread' ? undefined : value))) as T
}

describe('law 1: parse(stringify(tree)) equals tree', () => {
  it('for generated trees with every node type in every legal place', () => {
    fc.assert(
      fc.property(tree, (value) => {
        const text = stringifyKb(value)
        // `spread` is left out: mdast-util-from-markdown marks a list spread when a
        // blank line follows it inside a block quote (a reader quirk, not the dialect's).
        expect(withoutSpread(stripPositions(parseKb(text)))).toEqual(withoutSpread(value))
      }),
      {numRuns: Number(process.env.KB_LAW_RUNS ?? 200)}
    )
  }, 120_000)
})

describe('law 2: stringify(parse(text)) is a fixpoint after one pass', () => {
  const texts: Array<[string, string]> = [
    ...fixtureCases().map((name): [string, string] => [
      name,
      readFileSync(join(fixturesRoot, name, 'input.md'), 'utf8')
    ]),
    ...platformBodies()
  ]
  for (const [name, text] of texts) {
    it(name, () => {
      const once = stringifyKb(parseKb(text))
      expect(stringifyKb(parseKb(once))).toBe(once)
    })
  }
})

/**
 * The last walks that recursed over data are iterative (issue 32): the
 * title checks of the desired tree (`validate.ts`), the local references of
 * a body tree (`references.ts`) and the navigation's HTML (`preview/nav.ts`).
 * Each gives what the recursion it replaced gave (kept here as the
 * reference) on random shapes, and takes a chain deeper than the recursion
 * could go.
 */
import fc from 'fast-check'
import type {Root} from 'mdast'
import {describe, expect, it} from 'vitest'
import type {Diagnostic} from '../../src/local/diagnostic.js'
import {collectLocalRefs} from '../../src/local/references.js'
import type {LocalArticle, LocalNode, LocalTopic} from '../../src/local/types.js'
import {disambiguateTitles, validateTree} from '../../src/local/validate.js'
import {renderNav, type NavItem} from '../../src/preview/nav.js'
import {reference} from './shape-walks-reference.js'

const noRefs = {links: [], assets: []}

/** A random desired tree: few titles (so namesakes meet), some pinned ids, topics up to `depth` deep. */
function treeArbitrary(depth: number): fc.Arbitrary<ShapeNode[]> {
  const leaf = fc.record({
    title: fc.constantFrom('Intro', 'intro ', 'Guide', 'FAQ'),
    kbId: fc.option(fc.constantFrom('K1', 'K2', 'K3'), {nil: undefined}),
    children: fc.constant(undefined)
  })
  if (depth === 0) return fc.array(leaf, {maxLength: 4})
  const topic = fc.record({
    title: fc.constantFrom('Intro', 'Guide', 'Topics'),
    kbId: fc.option(fc.constantFrom('K1', 'K4'), {nil: undefined}),
    children: treeArbitrary(depth - 1)
  })
  return fc.array(fc.oneof(leaf, topic), {maxLength: 4})
}

interface ShapeNode {
  title: string
  kbId: string | undefined
  children: ShapeNode[] | undefined
}

/** The desired tree of a shape, each node with a path of its own (paths tell namesakes apart). */
function toTree(shape: ShapeNode[]): LocalTopic {
  const make = (nodes: ShapeNode[], at: string): LocalNode[] =>
    nodes.map((node, i): LocalNode => {
      const path = at === '' ? `n${i}` : `${at}/n${i}`
      const base = {title: node.title, refs: noRefs, ...(node.kbId ? {kbId: node.kbId} : {})}
      if (node.children === undefined) {
        const article: LocalArticle = {
          ...base,
          kind: 'article',
          path: `${path}.md`,
          file: `${path}.md`,
          sourceHash: path,
          hasFrontMatter: false
        }
        return article
      }
      return {...base, kind: 'topic', path, children: make(node.children, path)}
    })
  return {kind: 'topic', path: '', title: 'Root', refs: noRefs, children: make(shape, '')}
}

/** A topic chain `depth` deep, each topic holding an article and the next topic, some titles shared. */
function chainTree(depth: number): LocalTopic {
  const root: LocalTopic = {kind: 'topic', path: '', title: 'Root', refs: noRefs, children: []}
  let at = root
  for (let level = 0; level < depth; level++) {
    const path = at.path === '' ? 'a' : `${at.path}/a`
    const article: LocalArticle = {
      kind: 'article',
      path: `${path}.md`,
      file: `${path}.md`,
      title: 'Page',
      refs: noRefs,
      sourceHash: path,
      hasFrontMatter: false
    }
    const twin: LocalArticle = {...article, path: `${path}-b.md`, file: `${path}-b.md`}
    const next: LocalTopic = {kind: 'topic', path, title: 'Page', refs: noRefs, children: []}
    at.children.push(article, twin, next)
    at = next
  }
  return root
}

describe('the checks of the desired tree', () => {
  it('give what the recursion gave, in its order', () => {
    fc.assert(
      fc.property(treeArbitrary(4), (shape) => {
        const mine = toTree(shape)
        const theirs = toTree(shape)
        const found: Diagnostic[] = []
        const expected: Diagnostic[] = []
        disambiguateTitles(mine, found)
        reference.disambiguateTitles(theirs, expected)
        expect(mine).toEqual(theirs)
        validateTree(mine, found)
        reference.validateTree(theirs, expected)
        expect(found).toEqual(expected)
      })
    )
  })

  it('take a folder chain deeper than the recursion could go', () => {
    const deep = chainTree(12_000)
    expect(() => reference.validateTree(chainTree(12_000), [])).toThrow(RangeError)
    const diagnostics: Diagnostic[] = []
    disambiguateTitles(deep, diagnostics)
    validateTree(deep, diagnostics)
    expect(diagnostics.filter((d) => d.rule === 'title-disambiguated')).toHaveLength(12_000)
  })
})

/** A random mdast-like tree: links and images (local or not), definitions and code, nested in blocks. */
function mdastArbitrary(depth: number): fc.Arbitrary<Array<Record<string, unknown>>> {
  const url = fc.constantFrom('a.md', 'https://example.com/', 'img/x.png', '#top', '../b.md')
  const leaf = fc.oneof(
    fc.record({type: fc.constant('text'), value: fc.constant('t')}),
    fc.record({type: fc.constant('image'), url}),
    // Definitions of local paths are inlined first (the same code either way): only external ones here.
    fc.record({
      type: fc.constant('definition'),
      url: fc.constant('https://example.com/d'),
      identifier: fc.constant('d')
    }),
    fc.record({type: fc.constant('code'), lang: fc.constantFrom('js', 'mermaid'), value: fc.constant('graph TD')})
  )
  if (depth === 0) return fc.array(leaf, {maxLength: 3})
  const parent = fc.record({
    type: fc.constantFrom('paragraph', 'blockquote', 'listItem', 'link'),
    url,
    children: mdastArbitrary(depth - 1)
  })
  return fc.array(fc.oneof(leaf, parent), {maxLength: 4})
}

describe('the local references of a body', () => {
  it('are found in the order the recursion found them', () => {
    fc.assert(
      fc.property(mdastArbitrary(4), (children) => {
        const tree = {type: 'root', children} as unknown as Root
        const copy = structuredClone(tree)
        const found = collectLocalRefs(tree).map((ref) => (ref.kind === 'diagram' ? `diagram:${ref.source}` : ref.url))
        expect(found).toEqual(reference.collectLocalRefs(copy))
      })
    )
  })

  it('are found in blocks nested deeper than the recursion could go', () => {
    const root: Record<string, unknown> = {type: 'root', children: []}
    let at = root
    for (let level = 0; level < 20_000; level++) {
      const quote = {type: 'blockquote', children: [{type: 'link', url: `p${level}.md`, children: []}]}
      ;(at.children as unknown[]).push(quote)
      at = quote
    }
    expect(collectLocalRefs(root as unknown as Root)).toHaveLength(20_000)
  })
})

/** A random navigation: topics and articles, one of them possibly current, with error marks. */
function navArbitrary(depth: number): fc.Arbitrary<NavItem[]> {
  const base = {
    title: fc.constantFrom('A', 'B & <C>'),
    href: fc.constantFrom('/a', '/b?x="1"'),
    current: fc.option(fc.constant(true), {nil: undefined, freq: 6}),
    errors: fc.option(fc.nat(3), {nil: undefined})
  }
  const leaf = fc.record(
    {kind: fc.constantFrom('article' as const, 'topic' as const), ...base},
    {requiredKeys: ['kind', 'title', 'href']}
  )
  if (depth === 0) return fc.array(leaf, {maxLength: 3})
  const topic = fc.record(
    {kind: fc.constant('topic' as const), ...base, children: navArbitrary(depth - 1)},
    {requiredKeys: ['kind', 'title', 'href', 'children']}
  )
  return fc.array(fc.oneof(leaf, topic), {maxLength: 3})
}

describe('the navigation HTML', () => {
  it('is what the recursion wrote', () => {
    fc.assert(
      fc.property(navArbitrary(4), fc.boolean(), (items, filter) => {
        expect(renderNav(items, 'Contents', filter)).toBe(reference.renderNav(items, 'Contents', filter))
      })
    )
  })

  it('takes a topic chain 20,000 deep, the way down to the current page open', () => {
    const top: NavItem[] = []
    let into = top
    for (let level = 0; level < 20_000; level++) {
      const children: NavItem[] = []
      into.push({kind: 'topic', title: `T${level}`, href: `/t${level}`, children})
      into = children
    }
    into.push({kind: 'article', title: 'Last', href: '/last', current: true})
    expect(() => reference.renderNav(top)).toThrow(RangeError)
    const html = renderNav(top)
    expect(html.match(/<details open>/g)).toHaveLength(20_000)
    expect(html).toContain('aria-current="page">Last</a>')
  })
})

/**
 * Adversarial shapes of the dialect (issue 22, findings 6 and 7): bodies of
 * unclosed tags, deep nesting and huge unclosed containers. The plugins must
 * pair them in linear time and without the call stack; how fast is measured
 * by `npm run bench -- --only=adversarial`, not asserted here. These tests
 * check that each shape parses, and to what.
 */
import type {Html, Paragraph, PhrasingContent, Root, RootContent} from 'mdast'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import {kbTransform, remarkKbUnderline, takeKbProblems} from '../../plugins/index.js'
import {parseKb} from '../../src/dialect/index.js'

const html = (value: string): Html => ({type: 'html', value})
const text = (value: string): PhrasingContent => ({type: 'text', value})

/** `depth` block quotes around `inner` (built by hand: micromark is not under test). */
function quoted(depth: number, inner: RootContent[]): Root {
  let children = inner
  for (let level = 0; level < depth; level++) children = [{type: 'blockquote', children: children as never}]
  return {type: 'root', children}
}

/** The innermost children of a chain of single-child block quotes. */
function innermost(tree: Root): RootContent[] {
  let children = tree.children
  while (children.length === 1 && children[0].type === 'blockquote') children = children[0].children
  return children
}

describe('adversarial dialect bodies', () => {
  it('pairs 160 KB of unclosed `<u>a` into the tags and text as they were, each reported', () => {
    const count = 40_000
    const tree = parseKb('<u>a'.repeat(count))
    const paragraph = tree.children[0] as Paragraph
    expect(tree.children).toHaveLength(1)
    expect(paragraph.children).toHaveLength(2 * count)
    expect(
      paragraph.children.every((child, index) =>
        index % 2 === 0 ? child.type === 'html' && child.value === '<u>' : child.type === 'text'
      )
    ).toBe(true)
  })

  it('pairs 160 KB of unclosed `<details>` into as many tags, each reported', () => {
    const count = 14_000
    const tree = parseKb('<details>\n\n'.repeat(count))
    expect(tree.children).toHaveLength(count)
    expect(tree.children.every((child) => child.type === 'html' && child.value === '<details>')).toBe(true)
  })

  it('keeps a summary of an unclosed `<details>` as its tags around a paragraph, and unpaired lines of tags as written', () => {
    const tree = parseKb('<details><summary>\n\n'.repeat(3) + 'text\n\n</summary>')
    expect(tree.children.map((child) => (child.type === 'html' ? child.value : child.type))).toEqual([
      '<details><summary>',
      '<details><summary>',
      '<details>',
      '<summary>',
      'paragraph',
      '</summary>'
    ])
  })

  it('parses `>` x 5,002 (one level per character) without throwing', () => {
    expect(() => parseKb('>'.repeat(5002) + ' a')).not.toThrow()
  })

  it('builds the dialect nodes at the bottom of 100,000 nested block quotes, without the call stack', () => {
    const paragraph: Paragraph = {type: 'paragraph', children: [html('<u>'), text('a'), html('</u>')]}
    const tree = quoted(100_000, [paragraph])
    kbTransform(tree)
    expect(innermost(tree)).toEqual([{type: 'paragraph', children: [{type: 'underline', children: [text('a')]}]}])
  })

  it('keeps an unclosed `<u>` holding 150,000 nodes (no spreading of huge arrays as call arguments)', () => {
    const children: PhrasingContent[] = [html('<u>')]
    for (let index = 0; index < 75_000; index++) children.push({type: 'inlineCode', value: 'a'}, text(' '))
    const tree: Root = {type: 'root', children: [{type: 'paragraph', children}]}
    kbTransform(tree)
    expect((tree.children[0] as Paragraph).children).toHaveLength(150_001)
    expect(takeKbProblems(tree).map((problem) => problem.ruleId)).toEqual(['kb-unclosed-tag'])
  })

  it('keeps an unclosed hint block holding 150,000 blocks, and reports 150,000 stray tags', () => {
    const children: RootContent[] = [html('<div data-node="hintBlock" data-color="blue">')]
    for (let index = 0; index < 150_000; index++) children.push(html('</details>'))
    const tree: Root = {type: 'root', children}
    kbTransform(tree)
    expect(tree.children).toHaveLength(150_001)
    expect(takeKbProblems(tree)).toHaveLength(150_001)
  })

  it('closes a tag past 20,000 open tags of another name, each reported unclosed', () => {
    const children: PhrasingContent[] = [html('<u>')]
    for (let index = 0; index < 20_000; index++) children.push(html('<mark data-color="red">'), text('a'))
    children.push(html('</u>'))
    const tree: Root = {type: 'root', children: [{type: 'paragraph', children}]}
    kbTransform(tree)
    const [underline] = (tree.children[0] as Paragraph).children
    expect(underline.type).toBe('underline')
    expect((underline as {children: PhrasingContent[]}).children).toHaveLength(40_000)
    expect(takeKbProblems(tree)).toHaveLength(20_000)
  })

  it('names an attachment nested 50,000 underlines deep', () => {
    let inner: PhrasingContent[] = [text('deep.pdf')]
    for (let level = 0; level < 50_000; level++) inner = [{type: 'underline', children: inner} as PhrasingContent]
    const tree: Root = {
      type: 'root',
      children: [{type: 'paragraph', children: [html('<a data-node="attachment" href="g">'), ...inner, html('</a>')]}]
    }
    kbTransform(tree)
    expect((tree.children[0] as Paragraph).children).toEqual([{type: 'attachment', url: 'g', name: 'deep.pdf'}])
  })

  it('keeps the source of a mark 8,000 block quotes deep when only underlines are registered (capped at the limit)', () => {
    const processor = unified().use(remarkParse).use(remarkKbUnderline)
    const file = new VFile('>'.repeat(8000) + ' <mark data-color="red">a</mark>')
    const tree = processor.runSync(processor.parse(file), file) as Root
    expect(innermost(tree)).toMatchObject([{type: 'text', value: '<mark data-color="red">a</mark>'}])
    expect(file.messages.map((message) => message.ruleId)).toContain('kb-nesting-too-deep')
  })
})

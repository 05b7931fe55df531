/**
 * unified-native HTML (issue 33): `kbHastHandlers` in a plain unified
 * pipeline, `remark-parse -> remarkKb -> remark-rehype -> rehype-stringify`,
 * gives the same HTML as `kbToHtml`, on every dialect fixture and the
 * platform's own bodies; `kbToHast` returns the tree that HTML is made of.
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import rehypeStringify from 'rehype-stringify'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import {unified} from 'unified'
import {describe, expect, it} from 'vitest'
import {remarkKb} from '../../plugins/index.js'
import {createKbHastHandlers, kbHastHandlers, kbToHast, kbToHtml} from '../../src/dialect/index.js'
import {fixtureCases, fixturesRoot, platformBodies} from './helpers.js'

const pipeline = unified()
  .use(remarkParse)
  .use(remarkKb)
  .use(remarkRehype, {handlers: kbHastHandlers})
  .use(rehypeStringify)

const sources: Array<[string, string]> = [
  ...fixtureCases().map((name): [string, string] => [name, readFileSync(join(fixturesRoot, name, 'input.md'), 'utf8')]),
  ...platformBodies()
]

describe('kbHastHandlers in a remark-rehype pipeline', () => {
  it('has sources to compare', () => {
    expect(sources.length).toBeGreaterThan(50)
  })

  for (const [name, source] of sources) {
    it(`${name}: the same HTML as kbToHtml`, async () => {
      expect(String(await pipeline.process(source))).toBe(kbToHtml(source))
    })
  }

  it('dialect nodes are their own elements, not <div>s in paragraphs', async () => {
    const source = 'A ==marked==<mark data-color="yellow">m</mark> and <u>under</u>.\n\n:::hint yellow\nHint.\n:::\n'
    const html = String(await pipeline.process(source))
    expect(html).not.toMatch(/<div>|<p><div/)
    expect(html).toContain('<u>under</u>')
  })

  it('headings get their ids in the pipeline too, unique in the page', async () => {
    const html = String(await pipeline.process('# Set up\n\n## Set up\n'))
    expect(html).toBe('<h1 id="user-content-set-up">Set up</h1>\n<h2 id="user-content-set-up-1">Set up</h2>')
  })

  it('createKbHastHandlers takes the options of kbToHtml', async () => {
    const options = {clobberPrefix: '', articleHref: (id: string) => `/a/${id}`}
    const source = '# Title\n\n<a data-node="articleLink" data-article-id="42">doc</a>\n'
    const custom = unified()
      .use(remarkParse)
      .use(remarkKb)
      .use(remarkRehype, {handlers: createKbHastHandlers(options)})
      .use(rehypeStringify)
    const html = String(await custom.process(source))
    expect(html).toBe(kbToHtml(source, options))
    expect(html).toContain('href="/a/42"')
    expect(html).toContain('<h1 id="title">')
  })
})

describe('kbToHast', () => {
  it('returns a hast root whose elements carry the dialect nodes', () => {
    const tree = kbToHast('<mark data-color="red">m</mark>\n')
    expect(tree.type).toBe('root')
    const paragraph = tree.children.find((node) => node.type === 'element')
    expect(paragraph).toMatchObject({tagName: 'p', children: [{tagName: 'mark', properties: {dataColor: 'red'}}]})
  })

  it('sanitises like kbToHtml: raw HTML is text, unsafe URLs are dropped', () => {
    const tree = kbToHast('<script>x</script>\n\n[a](javascript:alert(1))\n')
    const json = JSON.stringify(tree)
    expect(json).not.toContain('"tagName":"script"')
    expect(json).not.toContain('javascript:')
  })
})

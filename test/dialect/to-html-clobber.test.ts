/**
 * `kbToHtml` output embedded in someone else's page: ids are prefixed so an
 * anchor named `location` cannot clobber `window.location`-style globals,
 * in-page links follow the prefix, and a diagram frame served from the
 * page's own origin cannot lift its own sandbox.
 */
import {fromHtml} from 'hast-util-from-html'
import type {Element} from 'hast'
import {visit} from 'unist-util-visit'
import {describe, expect, it} from 'vitest'
import {kbToHtml} from '../../src/dialect/index.js'

/** The values of the property `name` on the elements of `tagName` (any element for `*`) that have it, in document order. */
function attributes(html: string, tagName: string, name: string): unknown[] {
  const values: unknown[] = []
  visit(fromHtml(html, {fragment: true}), 'element', (element: Element) => {
    if ((tagName === '*' || element.tagName === tagName) && element.properties[name] !== undefined)
      values.push(element.properties[name])
  })
  return values
}

const anchor = 'Go to [the place](#location). <a data-node="anchorLink" data-id="location" />Here.'

describe('kbToHtml ids and in-page links', () => {
  it('prefixes anchor ids with user-content- and links follow', () => {
    const html = kbToHtml(anchor)
    expect(attributes(html, '*', 'id')).toEqual(['user-content-location'])
    expect(attributes(html, 'a', 'href')).toEqual(['#user-content-location', '#user-content-location'])
    // The dialect's own attribute keeps the name the author wrote.
    expect(html).toContain('data-id="location"')
  })

  it('takes another prefix, or none, from the options', () => {
    const html = kbToHtml(anchor, {clobberPrefix: 'kb-'})
    expect(attributes(html, '*', 'id')).toEqual(['kb-location'])
    expect(attributes(html, 'a', 'href')).toEqual(['#kb-location', '#kb-location'])
    expect(attributes(kbToHtml(anchor, {clobberPrefix: ''}), '*', 'id')).toEqual(['location'])
  })

  it('leaves a bare # and links to other pages alone', () => {
    const html = kbToHtml('[top](#) and [there](https://example.com/page#location) and [rel](other.html#x)')
    expect(attributes(html, 'a', 'href')).toEqual(['#', 'https://example.com/page#location', 'other.html#x'])
  })

  it('uses what the resolvers return as given (a hash-routed app keeps its routes)', () => {
    const html = kbToHtml(
      '<a data-node="articleLink" data-article-id="7">a</a> <a data-node="anchorLink" data-id="x" />',
      {
        articleHref: (id) => `#/article/${id}`,
        anchorHref: (id) => `#/here/${id}`
      }
    )
    expect(attributes(html, 'a', 'href')).toEqual(['#/article/7', '#/here/x'])
    expect(attributes(html, '*', 'id')).toEqual(['user-content-x'])
  })
})

describe('kbToHtml diagram frames', () => {
  const frame = (src: string) => kbToHtml(`<iframe data-node="drawio" src="${src}" width="600"></iframe>`)
  const sandbox = (src: string) => attributes(frame(src), 'iframe', 'sandbox')[0] as string[]

  it('never lets a same-origin or relative frame keep its origin', () => {
    for (const src of ['/files/diagram.html', 'diagram.html', '../x/diagram.html', '//127.0.0.1:4400/x']) {
      expect(sandbox(src), src).toContain('allow-scripts')
      expect(sandbox(src), src).not.toContain('allow-same-origin')
    }
  })

  it('lets the diagrams.net viewer keep its own origin, and no other host', () => {
    expect(sandbox('https://viewer.diagrams.net/?url=x')).toEqual([
      'allow-scripts',
      'allow-same-origin',
      'allow-popups'
    ])
    expect(sandbox('https://example.com/viewer?url=x')).not.toContain('allow-same-origin')
    expect(sandbox('https://diagrams.net.example.com/x')).not.toContain('allow-same-origin')
  })
})

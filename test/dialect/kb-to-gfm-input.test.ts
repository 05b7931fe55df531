/**
 * `kbTreeToGfm` leaves the tree it is given as it was: pull writes each body
 * from the tree its proof compares against (`document-body.ts`), with no copy.
 */
import {describe, expect, it} from 'vitest'
import {kbTreeToGfm, parseKb} from '../../src/dialect/index.js'

const body = [
  'See <a data-node="articleLink" data-article-id="41">the guide</a> and <a data-node="articleLink" data-topic-id="7">its topic</a>.',
  '',
  '- A nested <a data-node="articleLink" data-article-id="42">**bold** link</a>',
  '',
  '<iframe data-node="drawio" src="flows/order.drawio" width="800"></iframe>',
  '',
  '<iframe data-node="drawio" src="flows/order.drawio.svg" width="300"></iframe>',
  '',
  '<iframe data-node="drawio" src="https://h/d" width="300"></iframe>',
  ''
].join('\n')

describe('kbTreeToGfm', () => {
  it('converts links and draw.io diagrams without changing the tree it is given', () => {
    const tree = parseKb(body)
    const before = structuredClone(tree)
    const {markdown} = kbTreeToGfm(tree, {articleUrl: (id) => `/a/${id}`, topicUrl: (id) => `/t/${id}`})
    expect(tree).toEqual(before)
    const written = [
      '[the guide](/a/41)',
      '[its topic](/t/7)',
      '[**bold** link](/a/42)',
      '[order.drawio](flows/order.drawio)',
      '<img src="flows/order.drawio.svg" alt="order" width="300">',
      '<iframe data-node="drawio" src="https://h/d" width="300"></iframe>'
    ]
    for (const form of written) expect(markdown).toContain(form)
    // The same tree converts to the same text again.
    expect(kbTreeToGfm(tree, {articleUrl: (id) => `/a/${id}`, topicUrl: (id) => `/t/${id}`}).markdown).toBe(markdown)
  })
})

/**
 * Law 3: plain CommonMark keeps its meaning through parse -> stringify at
 * least as well as with plain remark. Every example of the CommonMark spec
 * (the `commonmark-spec` package) goes through kbsync's round trip and
 * through remark-parse + remark-gfm + remark-stringify; the reference
 * renderer (`commonmark`) renders the original and each output to HTML, and
 * an example is preserved when the HTML is unchanged.
 */
import {createRequire} from 'node:module'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkStringify from 'remark-stringify'
import {unified} from 'unified'
import {describe, expect, it} from 'vitest'
import {parseKb, stringifyKb} from '../../src/dialect/index.js'

const require = createRequire(import.meta.url)
const spec = require('commonmark-spec') as {
  tests: Array<{markdown: string; html: string; section: string; number: number}>
}
const commonmark = require('commonmark') as {
  Parser: new () => {parse(value: string): unknown}
  HtmlRenderer: new () => {render(tree: unknown): string}
}

const reader = new commonmark.Parser()
const writer = new commonmark.HtmlRenderer()
const render = (markdown: string) => writer.render(reader.parse(markdown))
const plain = unified().use(remarkParse).use(remarkGfm).use(remarkStringify).freeze()

function preserved(
  roundTrip: (value: string) => string,
  shown: (html: string) => string = (html) => html,
  meant: (html: string) => string = (html) => html
): {count: number; lost: number[]} {
  let count = 0
  const lost: number[] = []
  for (const example of spec.tests) {
    let output: string
    try {
      output = roundTrip(example.markdown)
    } catch {
      lost.push(example.number)
      continue
    }
    if (shown(render(output)) === meant(render(example.markdown))) count++
    else lost.push(example.number)
  }
  return {count, lost}
}

describe('law 3: CommonMark meaning survives a round trip', () => {
  it('kbsync preserves every spec example but one the reference renderer reads apart from micromark', () => {
    // A fence line inside code is written with a zero-width space before its backticks (plugins/code-fence.ts:
    // the platform answers 500 otherwise); the reader sees the same text, so the law looks past that guard.
    // The platform has three heading levels: `####` and deeper are `###` by design (kb-heading-depth).
    const kb = preserved(
      (value) => stringifyKb(parseKb(value)),
      (html) => html.replace(/\u200B(?=```)/g, ''),
      (html) => html.replace(/<(\/?)h[4-6]>/g, '<$1h3>')
    )
    const remark = preserved((value) => String(plain.processSync(value)))
    const total = spec.tests.length
    console.log(
      `CommonMark spec ${total} examples preserved: kbsync ${kb.count}, remark+remark-gfm ${remark.count}\n` +
        `kbsync loses: ${kb.lost.join(', ')}\nremark loses: ${remark.lost.join(', ')}`
    )
    expect(total).toBeGreaterThan(600)
    expect(kb.count).toBeGreaterThanOrEqual(remark.count)
    // Example 25 (`&nbsp; &amp; …`) is written with the characters: micromark (kbsync's reader, and remark's) keeps
    // the leading U+00A0 it starts with, the reference renderer trims it. Any other loss is a regression (example
    // 151, a stray `</div>` with text right under it, was one).
    expect(kb.lost).toEqual([25])
  }, 120_000)
})

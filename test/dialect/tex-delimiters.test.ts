/**
 * TeX's delimiters before the parse (`site-syntax/tex-delimiters.ts`): the
 * laws behind the fixture `gfm-to-kb-tex-delimiters`. An inline rewrite
 * keeps every column (two characters for two); what holds no formula is
 * left byte for byte; untrusted lines cost linear time.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {rewriteTexDelimiters} from '../../src/dialect/gfm-to-kb/site-syntax/tex-delimiters.js'

function rewrite(markdown: string): string[] {
  const lines = markdown.split('\n')
  const site = {lines, origin: lines.map((_, index) => index + 1), titles: new Map(), messages: []}
  rewriteTexDelimiters(site)
  return site.lines
}

const pieces = ['\\', '(', ')', '[', ']', 'x', '^', '_', ' ', '`', '$', '\\(', '\\)', '\\alpha', 'word']

describe('TeX delimiters', () => {
  it('keeps every line and column of a line it rewrites in place', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), {maxLength: 40}), (parts) => {
        const line = 'a ' + parts.join('')
        const [out] = rewrite(line)
        expect(out).toHaveLength(line.length)
        // Only delimiters change: everything else is where it was.
        for (let at = 0; at < line.length; at++) if (out![at] !== line[at]) expect('\\()[]$').toContain(line[at])
      })
    )
  })

  it('leaves text that holds no formula byte for byte', () => {
    const text = 'An aside \\(like this\\), \\[a link\\], \\\\(x^2\\\\) and `\\(\\alpha\\)`.'
    expect(rewrite(text)).toEqual([text])
  })

  it('takes linear time on lines built to make it scan again', () => {
    const started = performance.now()
    rewrite('\\('.repeat(100_000) + '\\[' + '\\\\)'.repeat(100_000) + '\\)')
    rewrite('\\[\n' + 'x\n'.repeat(100_000))
    rewrite(('\\(aside\\) ' + '\\[').repeat(30_000))
    expect(performance.now() - started).toBeLessThan(2000)
  })
})

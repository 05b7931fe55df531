/**
 * The preview's code highlighter: languages as info strings name them,
 * unknown ones plain, tokens told apart by class only (the sanitiser keeps
 * no style), the text kept exactly, and a block highlighted once.
 */
import {toHtml} from 'hast-util-to-html'
import type {ElementContent} from 'hast'
import {describe, expect, it} from 'vitest'
import {kbToHtml} from '../../src/dialect/index.js'
import {highlightCode, languageOf} from '../../src/preview/highlight.js'

const text = (nodes: ElementContent[]): string =>
  nodes.map((node) => (node.type === 'text' ? node.value : node.type === 'element' ? text(node.children) : '')).join('')

describe('languageOf', () => {
  it('reads ids, aliases and the info strings of docs sites', () => {
    expect(languageOf('ts')).toBe('typescript')
    expect(languageOf('TypeScript')).toBe('typescript')
    expect(languageOf('rust,ignore')).toBe('rust')
    expect(languageOf('sh')).toBe('shellscript')
    expect(languageOf('{.python}')).toBe('python')
    expect(languageOf('yml')).toBe('yaml')
  })

  it('knows no language for plain text, nothing, or a made-up or path-like name', () => {
    for (const lang of ['text', 'nosuchlanguage', '', undefined, '../../etc/passwd', 'constructor'])
      expect(languageOf(lang)).toBeUndefined()
  })
})

describe('highlightCode', () => {
  const code = 'const answer: number = 42 // the answer\nfunction f(a: string) {\n  return `x${a}`\n}'

  it('splits a block into classed tokens, keeping its text exactly', () => {
    const nodes = highlightCode(code, 'ts')!
    expect(text(nodes)).toBe(code)
    const html = toHtml({type: 'root', children: nodes})
    expect(html).toContain('<span class="kb-tok-keyword">const</span>')
    expect(html).toContain('<span class="kb-tok-comment">// the answer</span>')
    expect(html).not.toContain('style=')
  })

  it('leaves an unknown language plain', () => {
    expect(highlightCode(code, 'nosuchlanguage')).toBeUndefined()
    expect(highlightCode(code, undefined)).toBeUndefined()
  })

  it('highlights a block once: the same text again comes from the cache', () => {
    const block = Array.from({length: 1000}, (_, i) => `export const value${i}: number = ${i} // line ${i}`).join('\n')
    let started = performance.now()
    const first = highlightCode(block, 'typescript')!
    const firstMs = performance.now() - started
    started = performance.now()
    const again = highlightCode(block, 'ts')!
    const againMs = performance.now() - started
    console.info(`highlight: a 1,000-line block ${firstMs.toFixed(0)} ms, again ${againMs.toFixed(2)} ms`)
    expect(again).toBe(first)
    expect(againMs).toBeLessThan(firstMs / 10)
  })

  it('plugs into kbToHtml, whose output keeps the classes and the code', () => {
    const html = kbToHtml('```ts\nconst a = 1\n```', {highlight: highlightCode})
    expect(html).toBe(
      '<pre><code class="language-ts"><span class="kb-tok-keyword">const</span> <span class="kb-tok-constant">a</span> <span class="kb-tok-keyword">=</span> <span class="kb-tok-constant">1</span>\n</code></pre>'
    )
  })
})

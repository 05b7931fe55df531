/**
 * The pure trust rules of output and links in process (`output-text.ts`,
 * `url-scheme.ts`), as laws; `test/security/output.test.ts` runs them
 * through the CLI.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {escapeControls, jsonText, neutraliseCommand, oneLine, terminalText} from '../../src/trust/output-text.js'
import {isScriptUrl, liveUrl, urlScheme} from '../../src/trust/url-scheme.js'

/** Whether the runner would read `line` as a workflow command (v2 after leading white space, or the legacy `##[` anywhere). */
const startsCommand = (line: string) => /^[\s\u0085\u180e]*::/.test(line) || line.includes('##[')

const hostile = fc.string({
  unit: fc.constantFrom(
    ':',
    '#',
    '[',
    ' ',
    '\t',
    '\n',
    '\r',
    '\x1b',
    '\x07',
    '\u0085',
    '\u202e',
    '\u2028',
    'a',
    'e',
    'r'
  )
})

describe('output text', () => {
  it('no line of terminalText under GitHub Actions can start a workflow command (property)', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        for (const line of terminalText(text, {github: true}).split('\n')) expect(startsCommand(line)).toBe(false)
      })
    )
  })

  it('escapes every control but TAB, and keeps only the colours kbsync writes', () => {
    expect(oneLine('a\nb\rc\x1b[2Jd\u202ee\tf')).toBe('a\\nb\\rc\\x1b[2Jd\\u202ee\tf')
    expect(escapeControls('x\ny', {keepNewlines: true})).toBe('x\ny')
    expect(escapeControls('\x1b[31mred\x1b[0m \x1b]0;title\x07', {keepSgr: ['\x1b[31m', '\x1b[0m']})).toBe(
      '\x1b[31mred\x1b[0m \\x1b]0;title\\x07'
    )
    expect(oneLine('plain')).toBe('plain')
  })

  it('neutralises a leading :: and every ##[, and nothing else', () => {
    expect(neutraliseCommand('  ::error::x')).toBe('  \\::error::x')
    expect(neutraliseCommand('a ##[error] b ##[x')).toBe('a ##\\[error] b ##\\[x')
    expect(neutraliseCommand('a :: b')).toBe('a :: b')
    expect(terminalText('one\n::warning::two', {})).toBe('one\n::warning::two')
  })

  it('jsonText keeps the value of any JSON document (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), hostile, (value, text) => {
        const doc = JSON.stringify({value, text})
        const safe = jsonText(doc)
        expect(JSON.parse(safe)).toEqual(JSON.parse(doc))
        expect(safe).not.toContain('##[')
        expect(safe).not.toMatch(/[\u007f-\u009f\u2028\u2029\u202a-\u202e]/)
      })
    )
  })
})

describe('URLs that run code', () => {
  it.each([
    'javascript:alert(1)',
    ' JaVaScRiPt:alert(1)',
    'java\tscript:x',
    'java\nscript:x',
    '&#106;avascript:x',
    '&#x6A;avascript:x',
    'javascript&colon;x',
    '&amp;#106;avascript:x',
    'java%0ascript:x',
    '%6Aavascript:x',
    'vbscript:x',
    'livescript:x',
    'data:text/html,<script>alert(1)</script>',
    '\u0000javascript:x'
  ])('%j is refused as a link and as an image', (url) => {
    expect(isScriptUrl(url)).toBe(true)
    expect(isScriptUrl(url, 'image')).toBe(true)
    expect(liveUrl(url)).toBeUndefined()
  })

  it('keeps what is safe: relative, fragments, http(s), mailto, and raster data images', () => {
    for (const url of ['a/b.md', '#x', '/root', 'https://x.test/a?b#c', 'mailto:a@b.c', 'tel:+1', 'ftp://x.test/f'])
      expect(liveUrl(url), url).toBe(url)
    expect(isScriptUrl('data:image/png;base64,iVBOR', 'image')).toBe(false)
    expect(isScriptUrl('data:image/png;base64,iVBOR', 'link')).toBe(true)
    expect(isScriptUrl('data:image/svg+xml,<svg onload=x>', 'image')).toBe(true)
    expect(urlScheme('HTTPS://x')).toBe('https')
    expect(urlScheme('a/b:c')).toBeUndefined()
    expect(liveUrl('custom:x')).toBeUndefined()
  })
})

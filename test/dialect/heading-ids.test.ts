/**
 * Heading ids of `kbToHtml`: slugs as GitHub and the docs sites make them
 * (github-slugger's rules), unique per page, never an anchor's id, and
 * prefixed like every id so in-page links written for those sites land.
 */
import {fromHtml} from 'hast-util-from-html'
import type {Element} from 'hast'
import {visit} from 'unist-util-visit'
import {describe, expect, it} from 'vitest'
import {kbToHtml} from '../../src/dialect/index.js'
import {slug, Slugger} from '../../src/dialect/to-html/slug.js'

function headingIds(html: string): unknown[] {
  const ids: unknown[] = []
  visit(fromHtml(html, {fragment: true}), 'element', (element: Element) => {
    if (/^h[1-6]$/.test(element.tagName)) ids.push(element.properties.id)
  })
  return ids
}

describe('slug (github-slugger rules)', () => {
  // Cases from github-slugger's own fixtures and from GitHub's rendered READMEs.
  const cases: Array<[string, string]> = [
    ['Enabling Recursive Types with Boxes', 'enabling-recursive-types-with-boxes'],
    ['Hello, World!', 'hello-world'],
    ['`Option<T>` and `Result<T, E>`', 'optiont-and-resultt-e'],
    ['Привет мир', 'привет-мир'],
    ['日本語の見出し', '日本語の見出し'],
    ['snake_case stays', 'snake_case-stays'],
    ['Emoji 🎉 party', 'emoji--party'],
    ['  two  spaces ', '--two--spaces-'],
    ['C++ & C#', 'c--c'],
    ['v1.2.3 — notes', 'v123--notes'],
    ['Ünïcödé Çase', 'ünïcödé-çase'],
    ['a\u00a0b', 'ab']
  ]
  for (const [text, expected] of cases)
    it(`${JSON.stringify(text)} -> ${expected}`, () => expect(slug(text)).toBe(expected))

  it('numbers repeats as github-slugger does, skipping slugs already taken', () => {
    const slugger = new Slugger()
    expect(['Setup', 'Setup', 'Setup-1', 'Setup', 'Other'].map((text) => slugger.slug(text))).toEqual([
      'setup',
      'setup-1',
      'setup-1-1',
      'setup-2',
      'other'
    ])
  })

  it('never hands out a reserved id', () => {
    const slugger = new Slugger()
    slugger.reserve('setup')
    expect(slugger.slug('Setup')).toBe('setup-1')
  })
})

describe('kbToHtml heading ids', () => {
  it('gives every heading the prefixed slug of its text, and in-page links reach it', () => {
    const html = kbToHtml(
      '# Enabling Recursive Types\n\nSee [below](#enabling-recursive-types).\n\n## Details\n\n### Details\n'
    )
    expect(headingIds(html)).toEqual([
      'user-content-enabling-recursive-types',
      'user-content-details',
      'user-content-details-1'
    ])
    expect(html).toContain('href="#user-content-enabling-recursive-types"')
  })

  it('slugs the text of formatting, links and code, not of images', () => {
    const html = kbToHtml('## The **bold** `code` [link](https://x.org) ![pic](a.png) end\n')
    expect(headingIds(html)).toEqual(['user-content-the-bold-code-link--end'])
  })

  it('leaves a heading with an anchor to its anchor, and keeps anchors and heading ids apart', () => {
    const html = kbToHtml(
      '## <a data-node="anchorLink" data-id="custom" />Title\n\n## Setup\n\nText <a data-node="anchorLink" data-id="setup" />.\n'
    )
    expect(headingIds(html)).toEqual([undefined, 'user-content-setup-1'])
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1])
    expect(ids).toEqual(['user-content-custom', 'user-content-setup-1', 'user-content-setup'])
  })

  it('follows the clobber prefix, none included', () => {
    expect(headingIds(kbToHtml('# A', {clobberPrefix: 'kb-'}))).toEqual(['kb-a'])
    expect(headingIds(kbToHtml('# A', {clobberPrefix: ''}))).toEqual(['a'])
  })

  it('gives a heading with no letters no id', () => {
    expect(headingIds(kbToHtml('## 🎉\n'))).toEqual([undefined])
  })
})

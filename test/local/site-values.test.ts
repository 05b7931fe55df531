/**
 * The values a page's templates print, filled in from its front matter:
 * VitePress's `{{ $frontmatter.x }}` (before: left as text for readers).
 */
import {describe, expect, it} from 'vitest'
import {fillSiteValues, type SiteValues} from '../../src/local/site-data.js'

const site: SiteValues = {siteDir: '/s', languages: ['en'], cascade: [], params: {}, jekyll: {}}
const page = {data: {title: 'Getting started', meta: {version: 1.9}}, cascaded: {}}

describe('VitePress front matter values', () => {
  it('prints a value of the front matter, a nested one too, and leaves code and a missing key as written', () => {
    const body = [
      'Welcome to {{ $frontmatter.title }}, version {{$frontmatter.meta.version}}.',
      'In code: `{{ $frontmatter.title }}`; missing: {{ $frontmatter.nowhere }}.'
    ].join('\n')
    expect(fillSiteValues(body, page, site).body).toBe(
      [
        'Welcome to Getting started, version 1.9.',
        'In code: `{{ $frontmatter.title }}`; missing: {{ $frontmatter.nowhere }}.'
      ].join('\n')
    )
  })
})

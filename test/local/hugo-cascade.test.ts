/**
 * Hugo's cascade as data: the blocks of a front matter (a mapping or a
 * list, `target` or the older `_target`), front matter in YAML or TOML, a
 * page's Hugo path, kind and language, target globs, and the precedence of
 * the values handed down.
 */
import path from 'node:path'
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {
  appliesTo,
  cascadedValues,
  cascadeEntries,
  frontMatterData,
  pageOf,
  type CascadeSite
} from '../../src/local/hugo-cascade.js'
import {matchesGlob} from '../../src/local/hugo-glob.js'

const site: CascadeSite = {siteDir: '/s', languages: ['en', 'fr'], cascade: [{values: {color: 'site'}}]}

describe('cascade blocks', () => {
  it('reads a mapping and a list, params over other keys, either target key', () => {
    expect(cascadeEntries({cascade: {banner: 'a.jpg', params: {color: 'red'}}})).toEqual([
      {values: {banner: 'a.jpg', color: 'red'}}
    ])
    expect(cascadeEntries({cascade: [{params: {x: 1}, _target: {kind: 'page'}}, 'no', {params: {y: 2}}]})).toEqual([
      {values: {x: 1}, target: {kind: 'page'}},
      {values: {y: 2}}
    ])
    expect(cascadeEntries({title: 'none'})).toEqual([])
  })

  it('reads YAML and TOML front matter, and none', () => {
    expect(frontMatterData('---\ncascade:\n  params:\n    a: 1\n---\nbody')).toEqual({cascade: {params: {a: 1}}})
    const toml = frontMatterData("+++\ntitle = 'x'\n[cascade.params]\nb = 'two'\n+++\n")
    expect(JSON.parse(JSON.stringify(toml))).toEqual({title: 'x', cascade: {params: {b: 'two'}}})
    expect(frontMatterData('no front matter')).toBeUndefined()
    expect(frontMatterData('---\nunclosed: 1\n')).toBeUndefined()
  })
})

describe('pages as targets see them', () => {
  it('gives a path below the content folder, past a language folder, with its kind and the folders above it', () => {
    const at = (file: string) => pageOf(path.join('/s/content', file), '/s/content', site)
    expect(at('fr/blog/post.md').page).toEqual({path: '/blog/post', kind: 'page', lang: 'fr'})
    expect(at('blog/_index.md').page).toEqual({path: '/blog', kind: 'section', lang: 'en'})
    expect(at('_index.md').page).toEqual({path: '/', kind: 'home', lang: 'en'})
    expect(at('blog/bundle/index.md').page.path).toBe('/blog/bundle')
    expect(at('fr/blog/post.md').folders).toEqual(['/s/content/fr/blog', '/s/content/fr'])
    // Without a content folder, the synced folder is the top.
    expect(pageOf('/x/docs/a/b.md', '/x/docs', {languages: [], cascade: []}).page.path).toBe('/a/b')
  })

  it('matches targets by path, kind, language and the production environment', () => {
    const page = {path: '/blog/post', kind: 'page', lang: 'en'} as const
    const applies = (target: Record<string, unknown>) => appliesTo({values: {}, target}, page)
    expect(applies({path: '{/blog,/blog/**}'})).toBe(true)
    expect(applies({path: '/blog/*'})).toBe(true)
    expect(applies({path: '/docs/**'})).toBe(false)
    expect(applies({kind: '{section,home}'})).toBe(false)
    expect(applies({lang: 'en', environment: 'production'})).toBe(true)
    expect(applies({environment: 'development'})).toBe(false)
  })
})

describe('precedence', () => {
  it('takes each top-level key whole from the nearest cascade that defines it, the site’s last', () => {
    const page = {path: '/a/b', kind: 'page', lang: 'en'} as const
    const values = cascadedValues(
      page,
      [{values: {own: 1}}],
      [[{values: {book: {title: 'near'}}}], [{values: {book: {title: 'far', year: 1}, far: true}}]],
      site
    )
    expect({...values}).toEqual({own: 1, book: {title: 'near'}, far: true, color: 'site'})
  })
})

describe('globs', () => {
  it('match a path without special characters as itself, without case', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\/[\w/. -]{0,20}$/), fc.stringMatching(/^[\w/. -]{0,20}$/), (glob, other) => {
        expect(matchesGlob(glob, glob.toUpperCase())).toBe(true)
        if (other.toLowerCase() !== glob.toLowerCase()) expect(matchesGlob(glob, other)).toBe(false)
      })
    )
  })

  it('keep `*` within a segment and let `**` cross them', () => {
    expect(matchesGlob('/a/*', '/a/b/c')).toBe(false)
    expect(matchesGlob('/a/**', '/a/b/c')).toBe(true)
    expect(matchesGlob('/a/[!x]?', '/a/yz')).toBe(true)
    expect(matchesGlob('{/blog,/blog/**}', '/Blog/2024/post')).toBe(true)
    expect(matchesGlob('{section,page}', 'home')).toBe(false)
    // An unclosed brace is a literal one.
    expect(matchesGlob('{unclosed', '{unclosed')).toBe(true)
    expect(matchesGlob('{unclosed', 'unclosed')).toBe(false)
  })
})

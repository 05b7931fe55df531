/**
 * The page renderer others reuse (the local server's browse page): a whole,
 * self-contained document, everything escaped.
 */
import {describe, expect, it} from 'vitest'
import {
  hexToRgb,
  navFromStructure,
  palette,
  renderArticlePage,
  renderFragment,
  stylesheet
} from '../../src/preview/index.js'

describe('renderArticlePage', () => {
  const evil = '<img src=x onerror=alert(1)>'

  it('escapes tab title, title, path, navigation, message, hint, rule and source line', () => {
    const html = renderArticlePage({
      title: evil,
      html: '<p>body</p>',
      path: evil,
      nav: [{kind: 'article', title: evil, href: '/a/"x".md'}],
      warnings: [{severity: 'error', line: 2, message: evil, hint: evil, rule: evil}],
      source: `first\n${evil}\nthird`
    })
    expect(html).not.toContain('<img src=x')
    expect(html.match(/&lt;img src=x onerror=alert\(1\)&gt;/g)?.length).toBe(8)
    expect(html).toContain('href="/a/&quot;x&quot;.md"')
    expect(html).toContain('<p>body</p>')
  })

  it('is a whole document with the stylesheet inline and no script unless asked', () => {
    const html = renderArticlePage({title: 'T', html: '', nav: []})
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html).toContain(`<style>${stylesheet}</style>`)
    expect(html).not.toContain('<script')
    // The filter box needs the script: a page without it has none.
    expect(html).not.toContain('id="kb-nav-filter"')
    expect(renderArticlePage({title: 'T', html: '', nav: [], scriptHref: '/x.js'})).toContain('id="kb-nav-filter"')
    expect(renderArticlePage({title: 'T', html: '', nav: [], scriptHref: '/x.js'})).toContain(
      '<script src="/x.js" defer></script>'
    )
  })

  it('lists problems by line, errors with the lines around them', () => {
    const {main} = renderFragment({
      title: 'T',
      html: '',
      nav: [],
      warnings: [
        {severity: 'warning', line: 9, message: 'late'},
        {severity: 'error', line: 3, column: 4, message: 'early'}
      ],
      source: 'a\nb\nc\nd\ne\nf\ng\nh\ni'
    })
    expect(main).toContain('<h2>1 error</h2>')
    expect(main).toContain('<span class="kb-warnings-count">1 warning</span>')
    expect(main.indexOf('early')).toBeLessThan(main.indexOf('late'))
    expect(main).toContain('line 3:4')
    expect(main).toContain('<div class="kb-line-error"><span class="kb-line-number">3</span>c</div>')
    // Warnings get no excerpt: only the error's five lines are shown.
    expect(main.match(/kb-line-number/g)?.length).toBe(5)
  })

  it('gives the title the id its heading had, unless a heading of the body has it', () => {
    expect(renderFragment({title: 'Enabling Recursive Types', html: '<p>x</p>', nav: []}).main).toContain(
      '<h1 class="kb-page-title" id="user-content-enabling-recursive-types">'
    )
    const taken = renderFragment({title: 'Setup', html: '<h2 id="user-content-setup">Setup</h2>', nav: []}).main
    expect(taken).toContain('<h1 class="kb-page-title">Setup</h1>')
  })

  it('has a rule for each of the 11 colours', () => {
    for (const [token, colors] of Object.entries(palette)) {
      expect(stylesheet).toContain(
        `[data-node="hintBlock"][data-color="${token}"] { background-color: ${colors.hintBackground}; border-left-color: ${colors.hintBorder}; }`
      )
      expect(stylesheet).toContain(`mark[data-color="${token}"] { background-color: ${colors.mark}; }`)
    }
    expect(hexToRgb('#3e83f8')).toBe('rgb(62, 131, 248)')
  })
})

describe('navFromStructure', () => {
  it('turns the API structure into navigation entries, marking the current item', () => {
    const nav = navFromStructure(
      [
        {
          id: 'T1',
          type: 'topic',
          title: 'Guides',
          parent_topic_id: null,
          children: [{id: 'A1', type: 'article', title: 'Install', parent_topic_id: 'T1'}]
        },
        {id: 'A2', type: 'article', title: 'Welcome', parent_topic_id: null}
      ],
      (node) => `/browse/${node.type}/${node.id}`,
      'A1'
    )
    expect(nav).toEqual([
      {
        kind: 'topic',
        title: 'Guides',
        href: '/browse/topic/T1',
        children: [{kind: 'article', title: 'Install', href: '/browse/article/A1', current: true}]
      },
      {kind: 'article', title: 'Welcome', href: '/browse/article/A2'}
    ])
  })
})

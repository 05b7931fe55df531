/**
 * Grouping uses into targets (pure): one target per URL without its
 * fragment, fragments decoded and kept once, exclude patterns (`*` for any
 * run of characters, else a prefix), and the fragments that are no anchors.
 */
import {describe, expect, it} from 'vitest'
import {excludeMatcher, groupTargets, isAnchorFragment, splitFragment, type LinkUse} from '../../src/links/index.js'

const use = (url: string, line: number): LinkUse => ({url, file: 'a.md', line, kind: 'link'})

describe('groupTargets', () => {
  it('one target per URL without fragment, in order of first use, fragments decoded and once each', () => {
    const {targets} = groupTargets([
      use('https://a.example/x#one', 1),
      use('https://b.example/', 2),
      use('https://a.example/x#caf%C3%A9', 3),
      use('https://a.example/x#one', 4),
      use('https://a.example/x', 5)
    ])
    expect(targets.map((t) => [t.url, t.fragments, t.uses.map((u) => u.line)])).toEqual([
      ['https://a.example/x', ['one', 'café'], [1, 3, 4, 5]],
      ['https://b.example/', [], [2]]
    ])
  })

  it('an empty fragment is none', () => {
    expect(splitFragment('https://a.example/#')).toEqual({base: 'https://a.example/'})
  })
})

describe('excludeMatcher', () => {
  const excluded = excludeMatcher(['https://intranet.example/', 'https://*.example.org/private/*', '  '])
  it.each([
    ['https://intranet.example/wiki/a', true],
    ['https://INTRANET.example/', true],
    ['https://docs.example.org/private/x', true],
    ['https://docs.example.org/public/x', false],
    ['https://intranet.example.com/', false],
    ['http://intranet.example/', false]
  ])('%s excluded: %s', (url, expected) => {
    expect(excluded(url)).toBe(expected)
  })

  it('regular-expression characters in a pattern are literal', () => {
    expect(excludeMatcher(['https://a.example/x?y=(1)'])('https://a.example/x?y=(1)&z')).toBe(true)
    expect(excludeMatcher(['https://a.example/x?y=(1)'])('https://aXexample/x?y=(1)')).toBe(false)
  })
})

describe('isAnchorFragment', () => {
  it.each([
    ['install', true],
    ['user-content-usage', true],
    ['L10', false],
    ['L10-L20', false],
    ['/route/x', false],
    ['!/home', false],
    [':~:text=hello', false]
  ])('%s: %s', (fragment, expected) => {
    expect(isAnchorFragment(fragment)).toBe(expected)
  })
})

import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {
  assignNames,
  isPortableName,
  maxStemBytes,
  nameKey,
  safeStem,
  truncateBytes
} from '../../src/sync/shared/names.js'

describe('safeStem', () => {
  it.each([
    ['Setup/Install', 'Setup-Install'],
    ['Step 1: Install', 'Step 1 - Install'],
    ['What now?', 'What now'],
    ['Say "hi"', "Say 'hi'"],
    ['a\\b|c', 'a-b-c'],
    ['<tag> *star*', 'tag star'],
    ['Trailing dots...', 'Trailing dots'],
    ['Trailing space   ', 'Trailing space'],
    ['CON', 'CON_'],
    ['con.txt', 'con_.txt'],
    ['Lpt9', 'Lpt9_'],
    ['COM1 ', 'COM1_'],
    ['Console', 'Console'],
    ['.hidden', '_.hidden'],
    ['', 'untitled'],
    ['???', 'untitled'],
    ['...', 'untitled'],
    ['Notes.remote', 'Notes.remote_'],
    ['tab\there\nnewline', 'tab here newline'],
    ['Политика безопасности', 'Политика безопасности'],
    ['日本語のタイトル', '日本語のタイトル'],
    ['Ελληνικά: τίτλος', 'Ελληνικά - τίτλος']
  ])('%j -> %j', (title, stem) => {
    expect(safeStem(title)).toBe(stem)
  })

  it('normalises to NFC', () => {
    expect(safeStem('Cafe\u0301')).toBe('Caf\u00e9')
  })

  it('cuts long titles at a character boundary within the byte limit', () => {
    const stem = safeStem('я'.repeat(300))
    expect(Buffer.byteLength(stem)).toBeLessThanOrEqual(maxStemBytes)
    expect(stem).toBe('я'.repeat(100))
    expect(truncateBytes('a👍🏽b', 5)).toBe('a')
  })

  it('gives a portable name for any title (property)', () => {
    fc.assert(
      fc.property(fc.string({unit: 'binary', maxLength: 120}), (title) => {
        const stem = safeStem(title)
        expect(isPortableName(stem)).toBe(true)
        expect(isPortableName(stem + '.md')).toBe(true)
        expect(isPortableName(stem + ' (12).remote.md')).toBe(true)
        expect(stem.endsWith('.remote')).toBe(false)
      }),
      {numRuns: 200}
    )
  })
})

describe('assignNames', () => {
  it('resolves case-insensitive collisions by id: the lowest id keeps the plain name', () => {
    const names = assignNames([
      {id: 'B2', kind: 'article', title: 'Guide'},
      {id: 'A1', kind: 'article', title: 'guide'},
      {id: 'C3', kind: 'article', title: 'GUIDE?'},
      {id: 'D4', kind: 'topic', title: 'Guide'}
    ])
    expect(names.get('A1')).toBe('guide.md')
    expect(names.get('B2')).toBe('Guide (2).md')
    expect(names.get('C3')).toBe('GUIDE (3).md')
    // A folder and a file never clash: `Guide` is not `Guide.md`.
    expect(names.get('D4')).toBe('Guide')
  })

  it('keeps names already in use, and never takes reserved or local names', () => {
    const names = assignNames(
      [
        {id: 'A1', kind: 'article', title: 'Renamed on the web', current: 'Old name.md'},
        {id: 'B2', kind: 'article', title: '_index'},
        {id: 'C3', kind: 'topic', title: '_assets'},
        {id: 'D4', kind: 'article', title: 'Local'}
      ],
      ['local.md']
    )
    expect(names.get('A1')).toBe('Old name.md')
    expect(names.get('B2')).toBe('_index (2).md')
    expect(names.get('C3')).toBe('_assets (2)')
    expect(names.get('D4')).toBe('Local (2).md')
  })

  it('gives distinct, portable names, stable when the names are fed back (property)', () => {
    const title = fc.constantFrom(
      'Guide',
      'guide',
      'GUIDE',
      'CON',
      'a/b',
      'a:b',
      'Ünïcode',
      'Ünïcode',
      'x.',
      'Notes',
      'Notes?',
      '',
      '日本'
    )
    const request = fc.record({title, kind: fc.constantFrom('article' as const, 'topic' as const)})
    fc.assert(
      fc.property(fc.array(request, {maxLength: 12}), fc.boolean(), (list, shuffle) => {
        const requests = list.map((r, index) => ({...r, id: `ID${String(index).padStart(3, '0')}`}))
        const names = assignNames(requests)
        const keys = [...names.values()].map(nameKey)
        expect(new Set(keys).size).toBe(keys.length)
        for (const name of names.values()) expect(isPortableName(name)).toBe(true)
        // A second pull: the same items, now known by their names, in any order.
        const again = (shuffle ? [...requests].reverse() : requests).map((r) => ({...r, current: names.get(r.id)!}))
        expect(assignNames(again)).toEqual(names)
        // Order of the input does not matter on a first pull either.
        expect(assignNames([...requests].reverse())).toEqual(names)
      }),
      {numRuns: 200}
    )
  })
})

/**
 * The navigation editors: `SUMMARY.md` and MkDocs `nav` entries added,
 * removed, moved and retitled, everything else byte for byte; what they
 * write reads back (through the same parsers the scan uses) as meant.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {editMkdocsNav} from '../../../src/local/navigation/edit-mkdocs-nav.js'
import {editSummary} from '../../../src/local/navigation/edit-summary.js'
import {parseMkdocs} from '../../../src/local/navigation/mkdocs.js'
import {parseSummary} from '../../../src/local/navigation/mdbook-summary.js'
import type {NavEntry} from '../../../src/local/navigation/types.js'

const summary = [
  '# Summary',
  '',
  '[Introduction](index.md)',
  '',
  '- [Hello World](hello.md)',
  '    - [Comments](hello/comment.md)',
  '    - [Formatted print](hello/print.md)',
  '        - [Debug](hello/print/print_debug.md)',
  '',
  '<!-- a comment the author keeps -->',
  '- [Primitives](primitives.md)',
  '    - [Literals](primitives/literals.md)',
  '',
  '# Part two',
  '',
  '* [Other](other.md)',
  ''
].join('\n')

const mkdocs = [
  'site_name: Example # a comment',
  'nav:',
  '  - Home: index.md',
  '  # the guide',
  '  - User Guide:',
  '      - Writing: user-guide/writing.md',
  '      - user-guide/styling.md',
  '  - "About: us": about.md',
  '',
  'theme:',
  '  name: material',
  ''
].join('\n')

const titles = (entries: NavEntry[]): unknown[] =>
  entries.map((entry) =>
    entry.children.length > 0 ? [entry.title, titles(entry.children)] : (entry.title ?? entry.file)
  )

describe('editSummary', () => {
  it('adds an entry after its sibling with the list’s indentation and bullet, escaping the title', () => {
    const out = editSummary(summary, [
      {kind: 'insert', anchor: {after: 6}, entry: {title: 'New [one]', target: 'hello/new one.md', children: []}},
      {kind: 'insert', anchor: {after: 16}, entry: {title: 'Next', target: 'next.md', children: []}}
    ])
    expect(out).toBe(
      summary
        .replace('    - [Formatted print]', '    - [New \\[one\\]](<hello/new one.md>)\n    - [Formatted print]')
        .replace('* [Other](other.md)\n', '* [Other](other.md)\n* [Next](next.md)\n')
    )
    const parsed = parseSummary(out, 'SUMMARY.md')
    expect(parsed.problems).toEqual([])
    expect(parsed.entries[1]!.children[1]).toMatchObject({title: 'New [one]', file: 'hello/new one.md'})
  })

  it('removes an entry with its sub-entries, retitles one, moves one (re-indented, new path), and keeps the rest', () => {
    const out = editSummary(summary, [
      {kind: 'remove', line: 7},
      {kind: 'retitle', line: 11, title: 'Primitive types'},
      {kind: 'move', line: 6, anchor: {childOf: 11}, target: 'primitives/comment.md'}
    ])
    expect(out).toBe(
      summary
        .replace('    - [Comments](hello/comment.md)\n', '')
        .replace('    - [Formatted print](hello/print.md)\n        - [Debug](hello/print/print_debug.md)\n', '')
        .replace('- [Primitives](primitives.md)', '- [Primitive types](primitives.md)')
        .replace(
          '    - [Literals](primitives/literals.md)\n',
          '    - [Literals](primitives/literals.md)\n    - [Comments](primitives/comment.md)\n'
        )
    )
    expect(titles(parseSummary(out, 'SUMMARY.md').entries)).toEqual([
      'Introduction',
      'Hello World',
      ['Primitive types', ['Literals', 'Comments']],
      ['Part two', ['Other']]
    ])
  })

  it('keeps CRLF line endings, and names a nested new entry inside a new one', () => {
    const crlf = summary.replace(/\n/g, '\r\n')
    const entry = {title: 'Ch', target: 'ch/_index.md', children: [{title: 'Sub', target: 'ch/sub.md', children: []}]}
    const out = editSummary(crlf, [{kind: 'insert', anchor: {before: 11}, entry}])
    expect(out).toBe(crlf.replace('- [Primitives]', '- [Ch](ch/_index.md)\r\n    - [Sub](ch/sub.md)\r\n- [Primitives]'))
  })

  it('leaves every line it was not asked to touch byte for byte (any one entry removed)', () => {
    const entryLines = summary
      .split('\n')
      .map((line, index) => ({line, number: index + 1}))
      .filter(({line}) => /^\s*[-*] \[/.test(line) && !line.startsWith('        '))
    fc.assert(
      fc.property(fc.constantFrom(...entryLines), ({line, number}) => {
        const out = editSummary(summary, [{kind: 'remove', line: number}]).split('\n')
        const before = summary.split('\n')
        expect(out).not.toContain(line)
        // What is left is the original with a run of lines taken out: same order, same bytes.
        let at = 0
        for (const kept of out) {
          while (before[at] !== kept) at++
          at++
        }
      })
    )
  })
})

describe('editMkdocsNav', () => {
  it('adds, retitles, moves and removes items; comments, other keys and quoting stay', () => {
    const out = editMkdocsNav(mkdocs, [
      {kind: 'insert', anchor: {after: 6}, entry: {title: 'Deploy: now', target: 'user-guide/deploy.md', children: []}},
      {kind: 'retitle', line: 3, title: 'Start'},
      {kind: 'move', line: 7, anchor: {after: 8}},
      {
        kind: 'insert',
        anchor: {end: true},
        entry: {title: 'Extra', children: [{title: 'One', target: 'extra/one.md', children: []}]}
      }
    ])
    expect(out).toBe(
      [
        'site_name: Example # a comment',
        'nav:',
        '  - Start: index.md',
        '  # the guide',
        '  - User Guide:',
        '      - Writing: user-guide/writing.md',
        '      - "Deploy: now": user-guide/deploy.md',
        '  - "About: us": about.md',
        '  - user-guide/styling.md',
        '  - Extra:',
        '      - One: extra/one.md',
        '',
        'theme:',
        '  name: material',
        ''
      ].join('\n')
    )
    const parsed = parseMkdocs(out, 'mkdocs.yml')
    expect(parsed.problems).toEqual([])
    expect(titles(parsed.entries)).toEqual([
      'Start',
      ['User Guide', ['Writing', 'Deploy: now']],
      'About: us',
      'user-guide/styling.md',
      ['Extra', ['One']]
    ])
    expect(titles(parseMkdocs(editMkdocsNav(mkdocs, [{kind: 'remove', line: 5}]), 'm').entries)).toEqual([
      'Home',
      'About: us'
    ])
  })
})

import {expect, it} from 'vitest'
import {renameIncludes} from '../../src/sync/pull/include-names.js'
import type {PullOp} from '../../src/sync/pull/plan.js'

const dir = '/repo/docs'
const move = (from: string, to: string, type: 'article' | 'topic' = 'article'): PullOp => ({
  op: 'move',
  from,
  path: to,
  file: to,
  id: from,
  type,
  title: from,
  reason: 'moved on the platform'
})
const page = (moves: PullOp[], before = 'b/page.md', after = before) => ({
  dir,
  moves,
  snippetBases: ['/repo'],
  pageFolder: {before: `${dir}/${before.replace(/\/?[^/]*$/, '')}`, after: `${dir}/${after.replace(/\/?[^/]*$/, '')}`}
})

it('renames a snippet, with its line selection, in a block of names too, and leaves others as written', () => {
  const text = '--8<-- "docs/a/x.md:2:4"\n\n--8<--\ndocs/a/x.md\n;docs/a/x.md\ndocs/a/y.md\n--8<--\n'
  expect(renameIncludes(text, page([move('a/x.md', 'c/x.md')]))).toBe(
    '--8<-- "docs/c/x.md:2:4"\n\n--8<--\ndocs/c/x.md\n;docs/a/x.md\ndocs/a/y.md\n--8<--\n'
  )
})

it('renames a file under a moved folder, and an mdBook include whose page moved to another depth', () => {
  expect(renameIncludes('--8<-- "docs/a/x.md"\n', page([move('a', 'b/a', 'topic')]))).toBe('--8<-- "docs/b/a/x.md"\n')
  const listing = '```rust\n{{#include ../code/x.rs:anchor}}\n```\n\\{{#include ../code/x.rs}}\n'
  expect(renameIncludes(listing, page([move('b/page.md', 'b/c/page.md')], 'b/page.md', 'b/c/page.md'))).toBe(
    '```rust\n{{#include ../../code/x.rs:anchor}}\n```\n\\{{#include ../code/x.rs}}\n'
  )
})

it('leaves a text whose includes did not move as it is', () => {
  const text = '--8<-- "docs/a/x.md"\n{{#include ../code/x.rs}}\n'
  expect(renameIncludes(text, page([move('a/y.md', 'c/y.md')]))).toBe(text)
})

import {mkdir, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {scanFolder} from '../../src/local/index.js'
import {temporaryFolders} from '../temp-folders.js'

const folders = temporaryFolders('includes')
afterAll(() => folders.removeAll())

/** Writes `files` (path -> text) under a new temporary folder; answers the folder. */
async function layout(files: Record<string, string>): Promise<string> {
  const dir = await folders.make()
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), {recursive: true})
    await writeFile(path.join(dir, name), text)
  }
  return dir
}

const listing = [
  '// ANCHOR: all',
  'use std::io;',
  '// ANCHOR: main',
  'fn main() {',
  '    println!("Hello");',
  '}',
  '// ANCHOR_END: main',
  '// ANCHOR_END: all',
  ''
].join('\n')

const hidden = ['# use std::fmt;', '#[derive(Debug)]', 'struct A;', '#', 'fn main() {}', ''].join('\n')

/** A book inside a git repository, its listings beside it, and the scan of the book folder. */
async function book(chapter: string, extra: Record<string, string> = {}) {
  const repo = await layout({
    '.git/HEAD': 'ref: refs/heads/main\n',
    'listings/main.rs': listing,
    'listings/hidden.rs': hidden,
    'book/chapter.md': chapter,
    ...extra
  })
  const scan = await scanFolder(path.join(repo, 'book'))
  const node = scan.byPath['chapter.md']!
  return {
    repo,
    scan,
    node,
    warnings: scan.diagnostics.filter((d) => d.file === 'chapter.md').map((d) => ({line: d.line, rule: d.rule}))
  }
}

describe('mdBook includes in a scanned folder', () => {
  it('includes a whole file from elsewhere in the repository, anchor lines left out', async () => {
    const {node, warnings} = await book('# Chapter\n\n```rust\n{{#include ../listings/main.rs}}\n```\n')
    expect(node.body).toContain('```rust\nuse std::io;\nfn main() {\n    println!("Hello");\n}\n```')
    expect(node.body).not.toContain('ANCHOR')
    expect(warnings).toEqual([])
  })

  it('takes an anchor, line ranges as mdBook counts them, and drops hidden lines of rustdoc_include', async () => {
    const chapter = [
      '```rust',
      '{{#include ../listings/main.rs:main}}',
      '```',
      'A: {{#include ../listings/main.rs:2:2}}',
      'B: {{#include ../listings/main.rs::2}}',
      'C: {{#include ../listings/main.rs:9:}}',
      'D: {{#include ../listings/main.rs:2}}',
      '```rust',
      '{{#rustdoc_include ../listings/hidden.rs}}',
      '```',
      '{{#title Custom title}}',
      'Escaped: \\{{#include ../listings/main.rs}}',
      'Handlebars: `{{#each items}}{{this}}{{/each}}`',
      '{{#playground ../listings/main.rs:2}}',
      ''
    ].join('\n')
    const {node, warnings} = await book(chapter)
    expect(node.body).toBe(
      [
        '```rust',
        'fn main() {',
        '    println!("Hello");',
        '}',
        '```',
        'A: use std::io;',
        'B: use std::io;',
        'C: ',
        'D: use std::io;',
        '```rust',
        '#[derive(Debug)]',
        'struct A;',
        'fn main() {}',
        '```',
        '',
        'Escaped: {{#include ../listings/main.rs}}',
        'Handlebars: `{{#each items}}{{this}}{{/each}}`',
        '```rust',
        'use std::io;',
        '```',
        ''
      ].join('\n')
    )
    expect(warnings).toEqual([])
  })

  it('warns with file and line about a missing file or anchor, and leaves the directive out', async () => {
    const {node, warnings} = await book(
      'Text.\n\n{{#include ../listings/nowhere.rs}}\n\n{{#include ../listings/main.rs:nothing}}\n'
    )
    expect(node.body).not.toContain('{{#')
    expect(warnings).toEqual([
      {line: 3, rule: 'include-missing'},
      {line: 5, rule: 'include-anchor-missing'}
    ])
  })

  it('refuses files outside the repository, also through a symbolic link', async () => {
    const outside = await layout({'secret.txt': 'SECRET\n'})
    const chapter = `{{#include ${path.join(outside, 'secret.txt')}}}\n\n{{#include ../listings/link.txt}}\n`
    const repo = await layout({'.git/HEAD': 'x\n', 'listings/main.rs': listing, 'book/chapter.md': chapter})
    await symlink(path.join(outside, 'secret.txt'), path.join(repo, 'listings/link.txt'))
    const scan = await scanFolder(path.join(repo, 'book'))
    expect(scan.byPath['chapter.md']!.body).not.toContain('SECRET')
    expect(scan.diagnostics.filter((d) => d.file === 'chapter.md').map((d) => [d.line, d.rule])).toEqual([
      [1, 'include-outside'],
      [3, 'include-outside']
    ])
  })

  it('without a repository, allows only files inside the folder', async () => {
    const dir = await layout({
      'shared.md': 'shared text\n',
      'book/part.md': 'part text\n',
      'book/chapter.md': '{{#include ../shared.md}}\n\n{{#include part.md}}\n'
    })
    const scan = await scanFolder(path.join(dir, 'book'))
    expect(scan.byPath['chapter.md']!.body).toBe('\n\npart text\n')
    expect(scan.diagnostics.filter((d) => d.file === 'chapter.md').map((d) => d.rule)).toEqual(['include-outside'])
  })

  it('expands nested includes relative to the included file, and stops at a cycle', async () => {
    const {node, warnings} = await book('{{#include ../listings/outer.md}}\n', {
      'listings/outer.md': 'outer {{#include parts/inner.md}}\n',
      'listings/parts/inner.md': 'inner {{#include inner.md}}\n'
    })
    expect(node.body).toBe('outer inner \n')
    expect(warnings).toEqual([{line: 1, rule: 'include-depth'}])
  })

  it('keeps messages at the line the author wrote, after an include of many lines', async () => {
    const {warnings} = await book('```rust\n{{#include ../listings/main.rs}}\n```\n\n#### Deep heading\n')
    expect(warnings).toEqual([{line: 5, rule: 'kb-heading-depth'}])
  })

  it('makes the included text part of the body key: a changed listing re-renders the article', async () => {
    const first = await book('```rust\n{{#include ../listings/main.rs}}\n```\n')
    await writeFile(path.join(first.repo, 'listings/main.rs'), listing.replace('Hello', 'Bye'))
    const again = await scanFolder(path.join(first.repo, 'book'))
    expect(again.byPath['chapter.md']!.body).toContain('Bye')
    expect(again.byPath['chapter.md']!.bodyKey).not.toBe(first.node.bodyKey)
  })
})

describe('mdBook directives in inline code', () => {
  it('a directive whose file is missing stays as written in its code span, as mdBook leaves it (outside code it goes)', async () => {
    const {node, warnings} = await book('Write `{{#include file.rs}}` in a chapter.\n\nAlone: {{#include gone.rs}}\n')
    expect(node.body).toContain('Write `{{#include file.rs}}` in a chapter.')
    expect(node.body).toContain('Alone: \n')
    expect(warnings).toEqual([
      {line: 1, rule: 'include-missing'},
      {line: 3, rule: 'include-missing'}
    ])
  })

  it('a directive whose file exists is expanded in a code span too, as mdBook does', async () => {
    const {node} = await book('Import `{{#include ../listings/main.rs:2}}` first.\n')
    expect(node.body).toContain('Import `use std::io;` first.')
  })
})

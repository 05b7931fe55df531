import {describe, expect, it} from 'vitest'
import {parseKb, stringifyKb} from '../../src/dialect/index.js'
import {mergeDocument, type MergeResult} from '../../src/merge/index.js'
import {inputOf, remoteEdit, render} from './adapter.js'

const page = `---
title: Blocks
---

First paragraph.

<!-- kept -->

Second paragraph.

- one
- two

> [!TIP]
> An alert.

Last paragraph.
`

function merged(result: MergeResult): string {
  if (result.status !== 'merged') throw new Error(`not merged: ${JSON.stringify(result)}`)
  expect(result.remoteBlocks).toBeGreaterThan(0)
  return result.text
}

describe('mergeDocument: blocks inserted and deleted on the platform', () => {
  it('inserts a block after the one before it, with a blank line', () => {
    const text = merged(
      mergeDocument(inputOf(page, remoteEdit(page, 'Second paragraph.\n', 'Second paragraph.\n\nA new one.\n')))
    )
    expect(text).toBe(page.replace('Second paragraph.\n', 'Second paragraph.\n\nA new one.\n'))
  })

  it('inserts a block at the top of the body, before the first one', () => {
    const text = merged(mergeDocument(inputOf(page, 'Opening words.\n\n' + render(page))))
    expect(text).toBe(page.replace('\nFirst paragraph.', '\nOpening words.\n\nFirst paragraph.'))
  })

  it('appends a block at the end of the file', () => {
    const text = merged(mergeDocument(inputOf(page, render(page) + '\nClosing words.\n')))
    expect(text).toBe(page + '\nClosing words.\n')
  })

  it('writes the body after the front matter when the file had none', () => {
    const base = '---\ntitle: Empty\nkeep: me\n---\n'
    const text = merged(mergeDocument(inputOf(base, 'Now it has words.\n')))
    expect(text).toBe(base + '\nNow it has words.\n')
  })

  it('deletes a block with one blank line, keeping the comment', () => {
    const text = merged(mergeDocument(inputOf(page, remoteEdit(page, 'Second paragraph.\n\n', ''))))
    expect(text).toBe(page.replace('Second paragraph.\n\n', ''))
  })

  it('deletes the last block with the blank line before it', () => {
    const text = merged(mergeDocument(inputOf(page, remoteEdit(page, '\n\nLast paragraph.\n', '\n'))))
    expect(text).toBe(page.replace('\n\nLast paragraph.\n', '\n'))
  })

  it("inserts and deletes list items in the author's list", () => {
    const added = merged(mergeDocument(inputOf(page, remoteEdit(page, '- two\n', '- two\n- three\n'))))
    expect(added).toBe(page.replace('- two\n', '- two\n- three\n'))
    const removed = merged(mergeDocument(inputOf(page, remoteEdit(page, '- one\n', ''))))
    expect(removed).toBe(page.replace('- one\n', ''))
  })

  it("deletes a tight list's first or last item with its line alone, the blank lines around the list kept", () => {
    const base = 'Intro.\n\n* one\n* two\n* three\n\nAfter.\n'
    expect(merged(mergeDocument(inputOf(base, remoteEdit(base, '- one\n', ''))))).toBe(base.replace('* one\n', ''))
    expect(merged(mergeDocument(inputOf(base, remoteEdit(base, '- three\n', ''))))).toBe(base.replace('* three\n', ''))
  })

  it('moves a re-ordered item of a `*` list, its other items as the author wrote them', () => {
    const base = 'Intro:\n\n* Read [the docs](https://a.example/)\n* Ask a question\n* Chat &mdash; join us\n\nAfter.\n'
    const remote = remoteEdit(
      base,
      '- Read [the docs](https://a.example/)\n- Ask a question\n',
      '- Ask a question\n- Read [the docs](https://a.example/)\n'
    )
    expect(merged(mergeDocument(inputOf(base, remote)))).toBe(
      base.replace(
        '* Read [the docs](https://a.example/)\n* Ask a question\n',
        '* Ask a question\n* Read [the docs](https://a.example/)\n'
      )
    )
  })

  it('keeps a `*` list a `*` list when an item is added', () => {
    const base = 'Intro.\n\n* one\n* two\n'
    expect(merged(mergeDocument(inputOf(base, remoteEdit(base, '- two\n', '- two\n- three\n'))))).toBe(
      base + '* three\n'
    )
  })

  it('adds a paragraph inside an alert, keeping its quote markers', () => {
    const body = render(page)
    const tree = parseKb(body)
    const alert = tree.children.find((node) => node.type === 'hintBlock')!
    if (alert.type !== 'hintBlock') throw new Error('no alert')
    alert.children.push({type: 'paragraph', children: [{type: 'text', value: 'More advice.'}]})
    const text = merged(mergeDocument(inputOf(page, stringifyKb(tree))))
    expect(text).toBe(page.replace('> An alert.\n', '> An alert.\n>\n> More advice.\n'))
  })

  it('replaces two adjacent blocks one by one, keeping what lies between them', () => {
    const remote = remoteEdit(
      remoteEdit(page, 'First paragraph.', 'First words.'),
      'Second paragraph.',
      'Second words.'
    )
    const text = merged(mergeDocument(inputOf(page, remote)))
    expect(text).toBe(page.replace('First paragraph.', 'First words.').replace('Second paragraph.', 'Second words.'))
  })

  it('writes a list inserted after a list with another marker, so it stays a list of its own', () => {
    const base = 'Intro.\n\n- one\n- two\n'
    const text = merged(mergeDocument(inputOf(base, render(base) + '\n* new\n')))
    expect(text).toBe(base + '\n* new\n')
  })

  it('keeps CRLF line breaks in a CRLF file', () => {
    const base = page.replaceAll('\n', '\r\n')
    const text = merged(mergeDocument(inputOf(base, remoteEdit(page, '- two\n', '- two\n- three\n\nAdded.\n'))))
    expect(text).toBe(base.replace('- two\r\n', '- two\r\n- three\r\n\r\nAdded.\r\n'))
  })
})

import {describe, expect, it} from 'vitest'
import {mergeDocument, threeWay} from '../../src/merge/index.js'
import {inputOf, remoteEdit, render} from './adapter.js'

const page = `---
title: Both sides
---

The first paragraph.

The second paragraph.

The third paragraph.
`

describe('mergeDocument: local and platform edits', () => {
  it('merges a local edit in one paragraph with a platform edit in another', () => {
    const local = page.replace('The first', 'A local first')
    const result = mergeDocument(inputOf(page, remoteEdit(page, 'The third', 'A remote third'), local))
    expect(result).toEqual({
      status: 'merged',
      text: page.replace('The first', 'A local first').replace('The third', 'A remote third'),
      remoteBlocks: 1
    })
  })

  it('keeps the local file when the platform body is what base renders to', () => {
    const local = page.replace('The first', 'A local first')
    expect(mergeDocument(inputOf(page, render(page), local))).toEqual({status: 'merged', text: local, remoteBlocks: 0})
  })

  it('makes the same paragraph edited on both sides a conflict, with theirs and the local line', () => {
    const local = page.replace('The second paragraph.', 'The second paragraph, edited here.')
    const result = mergeDocument(
      inputOf(page, remoteEdit(page, 'The second paragraph.', 'The second one, edited there.'), local)
    )
    expect(result.status).toBe('conflict')
    if (result.status !== 'conflict') return
    expect(result.theirs).toBe(page.replace('The second paragraph.', 'The second one, edited there.'))
    expect(result.conflicts).toHaveLength(1)
    expect(result.conflicts[0]!.line).toBe(7)
    expect(result.conflicts[0]!.message).toMatch(/line 7/)
  })

  it('takes the same change made on both sides as no conflict', () => {
    const local = page.replace('The second', 'Both second')
    const result = mergeDocument(inputOf(page, remoteEdit(page, 'The second', 'Both second'), local))
    expect(result).toEqual({status: 'merged', text: local, remoteBlocks: 1})
  })
})

describe('threeWay', () => {
  it('merges disjoint line changes as git merge-file does', () => {
    expect(threeWay('a\n\nb\n\nc\n', 'A\n\nb\n\nc\n', 'a\n\nb\n\nC\n')).toEqual({
      status: 'merged',
      text: 'A\n\nb\n\nC\n'
    })
  })

  it('reports each overlapping region at its line in the local text', () => {
    const result = threeWay('a\nb\nc\nd\ne\n', 'a\nB\nc\nd\nE1\nE2\n', 'a\nb2\nc\nd\n')
    expect(result.status).toBe('conflict')
    if (result.status === 'conflict') expect(result.conflicts.map((c) => c.line)).toEqual([2, 5])
  })
})

describe('mergeDocument: what it will not guess', () => {
  it("refuses a changed block that is not the file's own text", () => {
    const result = mergeDocument(
      inputOf(page, remoteEdit(page, 'The second', 'A second'), page, {ownLines: (start) => start !== 7})
    )
    expect(result).toMatchObject({status: 'unmergeable', line: 7})
    if (result.status === 'unmergeable') expect(result.reason).toMatch(/lines 7-7.*not the file's own text/)
  })

  it('refuses a changed block without a position', () => {
    const input = inputOf(page, remoteEdit(page, 'The second', 'A second'))
    delete input.baseTree.children[1]!.position
    expect(mergeDocument(input)).toMatchObject({status: 'unmergeable'})
  })

  it('refuses a patch the proof rejects, never a guess', () => {
    // A conversion to the author's form that loses a word: the patched file does not render to the platform's body.
    const lossy = inputOf(page, remoteEdit(page, 'The second', 'A second'), page, {
      toAuthor: (blocks) => inputOf(page, render(page)).toAuthor(blocks).replace('second ', '')
    })
    expect(mergeDocument(lossy)).toEqual({
      status: 'unmergeable',
      reason: "the patched file would not give the platform's body back"
    })
  })
})

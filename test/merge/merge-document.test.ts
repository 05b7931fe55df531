import {describe, expect, it} from 'vitest'
import {mergeDocument, type MergeResult} from '../../src/merge/index.js'
import {inputOf, remoteEdit, render} from './adapter.js'

/** A Docusaurus/MkDocs/GitHub page with every construct the merge must keep. */
const page = `---
title: x
sidebar_position: 3
---

# Getting started {#start}

The first paragraph says hello to the reader.

:::tip Remember

Tips are written with three colons.

:::

!!! note "Heads up"
    MkDocs notes are indented by four spaces.

> [!WARNING]
> GitHub alerts quote their body.

<details>
<summary>More</summary>

Hidden text lives here.

</details>

<!-- a comment the platform never sees -->

See [the guide][guide] for more.

* first item
* second item
* third item

| Name | Value |
|------|-------|
| a    | 1     |

~~~js
const answer = 42
~~~

Last words.

[guide]: https://example.com/guide
`

function merged(result: MergeResult): string {
  if (result.status !== 'merged') throw new Error(`not merged: ${JSON.stringify(result)}`)
  return result.text
}

/** The lines of `after` that differ from `before` (same line count expected). */
function changedLines(before: string, after: string): number[] {
  const a = before.split('\n')
  const b = after.split('\n')
  expect(b.length).toBe(a.length)
  return a.flatMap((line, index) => (line === b[index] ? [] : [index + 1]))
}

describe('mergeDocument: the platform edits one block', () => {
  it('gives the local text back when the platform body is what base renders to', () => {
    const result = mergeDocument(inputOf(page, render(page)))
    expect(result).toEqual({status: 'merged', text: page, remoteBlocks: 0})
  })

  it('a one-word edit in a paragraph changes exactly that line', () => {
    const text = merged(mergeDocument(inputOf(page, remoteEdit(page, 'hello to', 'goodbye to'))))
    expect(changedLines(page, text)).toEqual([8])
    expect(text).toContain('The first paragraph says goodbye to the reader.')
  })

  it('an edit inside a :::tip keeps :::tip', () => {
    const text = merged(mergeDocument(inputOf(page, remoteEdit(page, 'three colons', 'three dots'))))
    expect(changedLines(page, text)).toEqual([12])
    expect(text).toContain(':::tip Remember\n\nTips are written with three dots.\n\n:::')
  })

  it('an edit inside a !!! note keeps the note and its indentation', () => {
    const text = merged(mergeDocument(inputOf(page, remoteEdit(page, 'four spaces', 'four blanks'))))
    expect(changedLines(page, text)).toEqual([17])
    expect(text).toContain('!!! note "Heads up"\n    MkDocs notes are indented by four blanks.')
  })

  it('an edit inside a GitHub alert keeps the alert', () => {
    const text = merged(mergeDocument(inputOf(page, remoteEdit(page, 'quote their', 'quote all their'))))
    expect(changedLines(page, text)).toEqual([20])
    expect(text).toContain('> [!WARNING]\n> GitHub alerts quote all their body.')
  })

  it('an edit inside <details> keeps the details', () => {
    const text = merged(mergeDocument(inputOf(page, remoteEdit(page, 'Hidden text', 'Folded text'))))
    expect(changedLines(page, text)).toEqual([25])
  })

  it('an edit in a list item keeps the other items and the bullets', () => {
    const text = merged(mergeDocument(inputOf(page, remoteEdit(page, 'second item', 'second entry'))))
    expect(changedLines(page, text)).toEqual([34])
    expect(text).toContain('* first item\n* second entry\n* third item')
  })

  it('an edit in a table replaces the table only', () => {
    const text = merged(mergeDocument(inputOf(page, remoteEdit(page, '| a | 1 |', '| b | 2 |'))))
    expect(text.split('\n').slice(0, 36)).toEqual(page.split('\n').slice(0, 36))
    expect(text.split('\n').slice(39)).toEqual(page.split('\n').slice(39))
  })

  it('an edit in a code fence replaces the fence only', () => {
    const text = merged(mergeDocument(inputOf(page, remoteEdit(page, 'answer = 42', 'answer = 43'))))
    expect(changedLines(page, text)).toEqual([42])
  })

  it("an edit of one code line keeps the others as the author wrote them (less indented than the fence's)", () => {
    const file = 'Intro.\n\n  ```js\nlet a = 1\n  let b = 2\n  ```\n\nAfter.\n'
    const text = merged(mergeDocument(inputOf(file, remoteEdit(file, 'let b = 2', 'let b = 3'))))
    expect(text).toBe(file.replace('let b = 2', 'let b = 3'))
  })

  it('keeps front matter, heading ids, comments and reference definitions byte for byte', () => {
    const text = merged(mergeDocument(inputOf(page, remoteEdit(page, 'Last words.', 'Final words.'))))
    expect(changedLines(page, text)).toEqual([45])
    for (const kept of ['sidebar_position: 3', '{#start}', '<!-- a comment', '[guide]: https', '[the guide][guide]'])
      expect(text).toContain(kept)
  })

  it('keeps the words around an edit as the author wrote them: reference links, emphasis markers', () => {
    const text = merged(mergeDocument(inputOf(page, remoteEdit(page, 'for more', 'for details'))))
    expect(changedLines(page, text)).toEqual([31])
    expect(text).toContain('See [the guide][guide] for details.')
    const base = 'Some *stress* and __weight__ here,\nwrapped by its author.\n'
    expect(merged(mergeDocument(inputOf(base, remoteEdit(base, 'here', 'there'))))).toBe(base.replace('here', 'there'))
  })

  it('an edit of a heading with an id keeps the id as the author wrote it (`{#id}`, not the anchor tag)', () => {
    const text = merged(mergeDocument(inputOf(page, remoteEdit(page, 'Getting started', 'Getting going'))))
    expect(changedLines(page, text)).toEqual([6])
    expect(text).toContain('\n# Getting going {#start}\n')
  })

  it("an edit of a reference link's text keeps the reference (`[text][ref]`, where the platform writes the URL)", () => {
    const text = merged(mergeDocument(inputOf(page, remoteEdit(page, 'the guide', 'our guide'))))
    expect(changedLines(page, text)).toEqual([31])
    expect(text).toContain('See [our guide][guide] for more.')
  })

  it("an edit of a link's text keeps its destination as the author wrote it (`\\&`, where the platform writes `&`)", () => {
    const base = 'See [the search](https://x.org/?a=1\\&b=2) and [a b](https://y.org/?q=1\\&r=2 "t") too.\n'
    for (const [from, to] of [
      ['the search', 'the find'],
      ['a b', 'a c']
    ] as const) {
      expect(merged(mergeDocument(inputOf(base, remoteEdit(base, from, to))))).toBe(base.replace(from, to))
    }
  })
})

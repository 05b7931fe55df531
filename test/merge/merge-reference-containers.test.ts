/**
 * A container whose children use reference links defined elsewhere in the
 * file (`[Attributes][]`, `[ScrollSpy][]` in Docsy's pages) is patched
 * child by child like any other: proved alone it lost its definitions, so
 * one item removed rewrote the whole list with inline links, and one word
 * in an alert rewrote the alert as a hint block.
 */
import {describe, expect, it} from 'vitest'
import {mergeDocument} from '../../src/merge/index.js'
import {difference, inputOf, merged, remoteEdit, render} from './adapter.js'

const page = `Hugo provides Markdown features including:

- [Attributes][] for adding custom IDs
- [Extensions][] such as tables and footnotes
- [Render hooks][] for customizing the output

> [!NOTE]
>
> Docsy includes a **runtime patch** for [ScrollSpy][] that
> fixes a bug.

Last words.

[Attributes]: https://example.com/attributes
[Extensions]: https://example.com/extensions
[Render hooks]: https://example.com/hooks
[ScrollSpy]: https://example.com/scrollspy
`

describe('mergeDocument: containers whose children use reference links', () => {
  it('a list item removed takes its line only, the reference links stay', () => {
    const body = render(page)
    const item = body.split('\n').find((line) => line.includes('such as tables'))!
    const text = merged(mergeDocument(inputOf(page, body.replace(item + '\n', ''))))
    expect(difference(page, text)).toEqual({gone: ['- [Extensions][] such as tables and footnotes'], added: []})
  })

  it('a word in an alert changes its line only, the alert stays', () => {
    const text = merged(mergeDocument(inputOf(page, remoteEdit(page, 'Docsy includes', 'Docsy ships'))))
    expect(difference(page, text)).toEqual({
      gone: ['> Docsy includes a **runtime patch** for [ScrollSpy][] that'],
      added: ['> Docsy ships a **runtime patch** for [ScrollSpy][] that']
    })
  })
})

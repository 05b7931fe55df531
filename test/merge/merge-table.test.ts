/**
 * A table the platform changed in its rows is patched row by row: a cell
 * edited, a row added or removed changes that row's line only, and a row
 * written into a table its author padded takes the columns' widths. Written
 * whole, one cell rewrote every line of a formatter-padded table.
 */
import {describe, expect, it} from 'vitest'
import {mergeDocument} from '../../src/merge/index.js'
import {difference, inputOf, merged, remoteEdit, render} from './adapter.js'

const padded = `# Options

Some words before.

| Name     | Default | Meaning                 |
| :------- | ------: | ----------------------- |
| \`depth\`  |       2 | How deep the tree goes  |
| verbose  |   false | Whether it says more    |
| colour   |    auto | When to use colour      |

Some words after.
`

const plain = `Before.

|Name|Value|
|-|-|
|a|1|
|b|2|

After.
`

describe('mergeDocument: tables row by row', () => {
  it("an edited cell keeps the author's text in the row's other cells (a reference link, `\\|`)", () => {
    const base = [
      'Before.',
      '',
      '| Script | Role |',
      '| --- | --- |',
      '| `test:repo` | See [`package.json`][pkg] or a\\|b |',
      '| `test:smoke` | Slow |',
      '',
      '[pkg]: https://example.com/package.json',
      ''
    ].join('\n')
    const text = merged(mergeDocument(inputOf(base, remoteEdit(base, '| `test:repo` |', '| edited cell |'))))
    expect(difference(base, text)).toEqual({
      gone: ['| `test:repo` | See [`package.json`][pkg] or a\\|b |'],
      added: ['| edited cell | See [`package.json`][pkg] or a\\|b |']
    })
  })

  it('an edited cell rewrites its row only, padded to the columns', () => {
    const text = merged(mergeDocument(inputOf(padded, remoteEdit(padded, 'Whether it says more', 'Whether it talks'))))
    expect(difference(padded, text)).toEqual({
      gone: ['| verbose  |   false | Whether it says more    |'],
      added: ['| verbose  |   false | Whether it talks        |']
    })
  })

  it('a row added is one line more, the others kept', () => {
    const remote = remoteEdit(
      padded,
      '| colour | auto | When to use colour |',
      '| colour | auto | When to use colour |\n| quiet | true | Says less |'
    )
    const text = merged(mergeDocument(inputOf(padded, remote)))
    expect(difference(padded, text)).toEqual({gone: [], added: ['| quiet    |    true | Says less               |']})
    expect(render(text)).toBe(remote)
  })

  it('a row removed takes its line only', () => {
    const text = merged(
      mergeDocument(inputOf(padded, remoteEdit(padded, '| verbose | false | Whether it says more |\n', '')))
    )
    expect(difference(padded, text)).toEqual({gone: ['| verbose  |   false | Whether it says more    |'], added: []})
  })

  it('a row too wide for the columns is written as it is, and an unpadded table stays unpadded', () => {
    const wide = merged(
      mergeDocument(
        inputOf(padded, remoteEdit(padded, 'How deep the tree goes', 'How deep the whole tree of topics goes'))
      )
    )
    expect(difference(padded, wide).added).toEqual(['| `depth` | 2 | How deep the whole tree of topics goes |'])
    const text = merged(mergeDocument(inputOf(plain, remoteEdit(plain, '| b | 2 |', '| b | 3 |'))))
    expect(difference(plain, text)).toEqual({gone: ['|b|2|'], added: ['| b | 3 |']})
  })

  it('a changed header writes the table whole', () => {
    const text = merged(mergeDocument(inputOf(plain, remoteEdit(plain, '| Name | Value |', '| Key | Value |'))))
    expect(text).toContain('| Key | Value |')
    expect(render(text)).toBe(remoteEdit(plain, '| Name | Value |', '| Key | Value |'))
  })
})

/**
 * Web edits to text the author wrote where the platform shows it otherwise:
 * a cell of a table written in HTML (Jekyll's pages) is patched inside its
 * `<td>`, a row dropped takes its `<tr>` lines; a footnote's text, shown in
 * the notes list the conversion makes at the body's end, is patched in the
 * footnote's definition. Before, all three were unmergeable (a conflict).
 */
import {describe, expect, it} from 'vitest'
import {mergeDocument} from '../../src/merge/index.js'
import {difference, inputOf, merged, remoteEdit, render} from './adapter.js'

const htmlTable = `# Plugins

There are two flags:

<div class="mobile-side-scroller">
<table>
  <thead>
    <tr>
      <th>Flag</th>
      <th>Description</th>
    </tr>
  </thead>
  <tbody>
    <tr>
      <td>
        <p><code>safe</code></p>
      </td>
      <td>
        <p>
          A boolean flag that says whether this plugin may be safely
          executed where arbitrary code is not allowed.
        </p>
      </td>
    </tr>
    <tr>
      <td>
        <p><code>priority</code></p>
      </td>
      <td>
        <p>
          The order the plugin is loaded in.
        </p>
      </td>
    </tr>
  </tbody>
</table>
</div>

After the table.
`

const footnotes = `# Notes

Docsy is popular[^0] and its core is small[^1].

[^0]: According to [the analytics][stats] of last year.

[^1]:
    Features outside the core could even be moved to a separate
    repository, one day.

[stats]: https://example.com/stats
`

describe('mergeDocument: a table written in HTML, footnotes', () => {
  it("an edited cell of an HTML table is patched inside its <td>, on the cell's own line", () => {
    const remote = remoteEdit(htmlTable, 'A boolean flag', 'A web boolean flag')
    const text = merged(mergeDocument(inputOf(htmlTable, remote)))
    expect(difference(htmlTable, text)).toEqual({
      gone: ['          A boolean flag that says whether this plugin may be safely'],
      added: ['          A web boolean flag that says whether this plugin may be safely']
    })
    expect(render(text)).toBe(remote)
  })

  it('a row dropped from an HTML table takes its <tr> lines, nothing more', () => {
    const remote = remoteEdit(htmlTable, '| `priority` | The order the plugin is loaded in. |\n', '')
    const text = merged(mergeDocument(inputOf(htmlTable, remote)))
    expect(text).toBe(htmlTable.replace(/ {4}<tr>\n(?:(?! {4}<tr>).*\n)*?.*priority(?:.*\n)*? {4}<\/tr>\n/, ''))
    expect(text).toContain('safely')
    expect(render(text)).toBe(remote)
  })

  it("a footnote's text edited on the web is patched in its definition, where the author wrote it", () => {
    const remote = remoteEdit(footnotes, 'could even be moved', 'could even be webmoved')
    const text = merged(mergeDocument(inputOf(footnotes, remote)))
    expect(difference(footnotes, text)).toEqual({
      gone: ['    Features outside the core could even be moved to a separate'],
      added: ['    Features outside the core could even be webmoved to a separate']
    })
  })

  it("a footnote's first line keeps its reference link", () => {
    const remote = remoteEdit(footnotes, 'of last year', 'of this year')
    const text = merged(mergeDocument(inputOf(footnotes, remote)))
    expect(difference(footnotes, text)).toEqual({
      gone: ['[^0]: According to [the analytics][stats] of last year.'],
      added: ['[^0]: According to [the analytics][stats] of this year.']
    })
  })
})

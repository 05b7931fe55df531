import {describe, expect, it} from 'vitest'
import {mergeDocument, type MergeResult} from '../../src/merge/index.js'
import {inputOf, render} from './adapter.js'

function merged(result: MergeResult): string {
  if (result.status !== 'merged') throw new Error(`not merged: ${JSON.stringify(result)}`)
  return result.text
}

/** The platform's body with the first hint block's colour changed, as the web editor's colour menu does. */
function recoloured(file: string, from: string, to: string): string {
  const body = render(file)
  const marker = `data-color="${from}"`
  const bare = `data-color=${from}`
  if (body.includes(marker)) return body.replace(marker, `data-color="${to}"`)
  if (body.includes(bare)) return body.replace(bare, `data-color=${to}`)
  throw new Error(`no ${from} hint block in:\n${body}`)
}

const around = (block: string): string => `# Hints\n\nBefore the hint.\n\n${block}\n\nAfter the hint.\n`

describe('mergeDocument: a hint block recoloured on the web changes only its marker', () => {
  const cases: Array<[string, string, string, string, string]> = [
    ['Docusaurus :::tip', ':::tip\n\nKeep *this* text.\n\n:::', 'green', 'orangeYellow', ':::warning'],
    ['Docusaurus :::note with a title', ':::note Remember\n\nKeep this.\n\n:::', 'blue', 'red', ':::caution Remember'],
    [
      'MkDocs !!! note',
      '!!! note "Heads up"\n    Keep this\n    on two lines.',
      'blue',
      'orangeYellow',
      '!!! warning "Heads up"'
    ],
    ['a GitHub alert', '> [!NOTE]\n> Keep _this_\n> on two lines.', 'blue', 'orangeYellow', '> [!WARNING]']
  ]
  for (const [name, block, from, to, marker] of cases)
    it(`${name}: ${from} -> ${to}`, () => {
      const file = around(block)
      const text = merged(mergeDocument(inputOf(file, recoloured(file, from, to))))
      const firstLine = block.split('\n')[0]!
      expect(text).toBe(file.replace(firstLine, marker))
    })

  it("a colour no docs tool names takes the dialect's tags in place of the fences, the text kept as written", () => {
    const inside = 'Call [the reducer](./glossary.md#reducer) _only_ once.\n\nYou _may_ dispatch later.'
    const file = around(`:::caution\n\n${inside}\n\n:::`)
    const text = merged(mergeDocument(inputOf(file, recoloured(file, 'red', 'pink'))))
    expect(text).toBe(around(`<div data-node="hintBlock" data-color="pink">\n\n${inside}\n\n</div>`))
  })

  it('a recoloured hint whose text changed too keeps both edits small', () => {
    const file = around(':::tip\n\nKeep this text.\n\nAnd this.\n\n:::')
    const remote = recoloured(file, 'green', 'red').replace('And this.', 'And this, edited.')
    const text = merged(mergeDocument(inputOf(file, remote)))
    expect(text).toBe(file.replace(':::tip', ':::caution').replace('And this.', 'And this, edited.'))
  })
})

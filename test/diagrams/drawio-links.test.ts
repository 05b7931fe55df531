/** GFM to dialect: links and images to local draw.io files become the dialect's diagram (input/output pairs). */
import {describe, expect, it} from 'vitest'
import {gfmToKb} from '../../src/dialect/index.js'

const cases: Array<[string, string, string]> = [
  [
    'a link alone in its paragraph',
    '[Architecture](arch.drawio)\n',
    '<iframe data-node="drawio" src="arch.drawio" width="800"></iframe>\n'
  ],
  [
    'an image of an exported .drawio.svg',
    '![flow](img/flow.drawio.svg)\n',
    '<iframe data-node="drawio" src="img/flow.drawio.svg" width="800"></iframe>\n'
  ],
  [
    'a sized HTML image keeps its width',
    '<img src="c.drawio.png" width="500">\n',
    '<iframe data-node="drawio" src="c.drawio.png" width="500"></iframe>\n'
  ],
  ['a link among text stays a link', 'See [arch](arch.drawio) here.\n', 'See [arch](arch.drawio) here.\n'],
  ['a web address stays a link', '[x](https://example.com/a.drawio)\n', '[x](https://example.com/a.drawio)\n'],
  ['another extension is no diagram', '![x](a.svg)\n', '![x](a.svg)\n']
]

describe('draw.io links in GFM', () => {
  for (const [name, input, output] of cases) {
    it(name, () => {
      const {markdown, messages} = gfmToKb(input, {path: 'doc.md'})
      expect(markdown).toBe(output)
      expect(messages).toEqual([])
    })
  }
})

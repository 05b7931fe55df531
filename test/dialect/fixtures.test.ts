/**
 * Walks `fixtures/dialect/<case>/{input.md, output.md, tree.json}`: the tree
 * parsed from the input (positions stripped) and the canonical output.
 * `KB_UPDATE_FIXTURES=1` rewrites the expectations (review the diff!).
 */
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {parseKb, stringifyKb} from '../../src/dialect/index.js'
import {fixtureCases, fixturesRoot, platformBodies, stripPositions} from './helpers.js'

const update = process.env.KB_UPDATE_FIXTURES === '1'
const cases = fixtureCases()

describe('dialect fixtures', () => {
  it('has at least 60 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60)
  })

  for (const name of cases) {
    it(name, () => {
      const folder = join(fixturesRoot, name)
      const input = readFileSync(join(folder, 'input.md'), 'utf8')
      const tree = stripPositions(parseKb(input))
      const output = stringifyKb(parseKb(input))
      if (update || !existsSync(join(folder, 'tree.json'))) {
        writeFileSync(join(folder, 'tree.json'), JSON.stringify(tree, null, 2) + '\n')
        writeFileSync(join(folder, 'output.md'), output)
      }
      expect(tree).toEqual(JSON.parse(readFileSync(join(folder, 'tree.json'), 'utf8')))
      expect(output).toBe(readFileSync(join(folder, 'output.md'), 'utf8'))
      // The canonical output parses to the same tree, unless the input was bad (kept as html).
      expect(stringifyKb(parseKb(output))).toBe(output)
    })
  }
})

describe('platform bodies', () => {
  const bodies = platformBodies()
  it('are present', () => {
    expect(bodies.length).toBeGreaterThan(0)
  })
  for (const [name, text] of bodies) {
    it(`${name} round-trips byte for byte (trailing newlines normalised to one)`, () => {
      expect(stringifyKb(parseKb(text))).toBe(text.replace(/\n+$/, '') + '\n')
    })
  }
})

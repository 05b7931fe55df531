// The vocabulary (plugins/syntax/vocabulary.ts) repeats what the constructs' entries declare; deriving it would make
// an import cycle, so this holds the two together: a construct added without its names in the vocabulary fails here.
import {describe, expect, it} from 'vitest'
import {dialectConstructs} from '../../plugins/dialect.js'
import {blockNames, dialectNodes, inlinePairNames} from '../../plugins/syntax/vocabulary.js'
import {pairingTable, type Entries} from '../../plugins/transform/table.js'

const table = pairingTable(dialectConstructs)

/** The tag names of `entries` whose entries pass `keep`. */
function namesOf<E>(entries: Entries<E>, keep: (entry: E) => boolean = () => true): string[] {
  return [...entries]
    .filter(([, named]) => [named.any, ...named.byNode.values()].some((entry) => entry !== undefined && keep(entry)))
    .map(([name]) => name)
    .sort()
}

/** The `data-node` values of both levels, by tag name. */
function nodesByName(): Map<string, string[]> {
  const nodes = new Map<string, string[]>()
  for (const entries of [table.flow, table.phrasing] as Entries<object>[]) {
    for (const [name, named] of entries) {
      if (named.byNode.size > 0) nodes.set(name, [...(nodes.get(name) ?? []), ...named.byNode.keys()].sort())
    }
  }
  return nodes
}

describe('the vocabulary names what the dialect constructs pair', () => {
  it('block names: the tags of the flow entries', () => {
    expect([...blockNames].sort()).toEqual(namesOf(table.flow))
  })
  it('inline pair names: the tags of the phrasing entries that close a pair', () => {
    expect([...inlinePairNames].sort()).toEqual(namesOf(table.phrasing, (entry) => entry.close !== undefined))
  })
  it('data-node values: those of the entries, by tag name', () => {
    const declared = new Map([...dialectNodes].map(([name, nodes]) => [name, [...nodes].sort()]))
    expect(declared).toEqual(nodesByName())
  })
})

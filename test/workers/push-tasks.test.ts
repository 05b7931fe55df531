import {afterAll, describe, expect, it} from 'vitest'
import {bodyTree, type LocalNode} from '../../src/local/index.js'
import {bodyFactsInPool, bodyTreeInPool, parseBodyFacts} from '../../src/local/body-facts.js'
import {closeConversionPool, conversionPool, workersVariable} from '../../src/workers/index.js'

const body = [
  '# Guide',
  '',
  'See [the setup](setup.md) and ![a diagram](img/flow.png), or <https://example.com/docs>.',
  '',
  '> [!NOTE]',
  '> Read this first.',
  '',
  '| a | b |',
  '| - | - |',
  '| 1 | [two](../two.md) |',
  ''
].join('\n')

function nodeOf(resolve = true): LocalNode {
  const {facts} = parseBodyFacts(body, 'guide/intro.md')
  const resolutions = resolve ? facts.refs.map((ref) => ({link: {target: ref.url, kind: 'article' as const}})) : []
  const at = {path: 'guide/intro', title: 'Intro', file: 'guide/intro.md', body, resolutions}
  return {...at, kind: 'article', source: body, sourceHash: '', hasFrontMatter: false, refs: {links: [], assets: []}}
}

// Workers even on a machine of two cores or fewer, which converts in-process by default (`poolSize`).
process.env[workersVariable] = '1'
afterAll(() => closeConversionPool())

describe("push's parses on the conversion pool", () => {
  it('the facts of a body parsed on a worker are the ones this thread finds', async () => {
    expect(conversionPool().size).toBeGreaterThan(0)
    expect(await bodyFactsInPool(body, 'guide/intro.md')).toEqual(parseBodyFacts(body, 'guide/intro.md').facts)
  })

  it('the tree a worker parses is the one bodyTree keeps: references marked, no positions', async () => {
    const inPool = nodeOf()
    await bodyTreeInPool(inPool)
    const here = nodeOf()
    expect(inPool.tree).toEqual(bodyTree(here))
    expect(JSON.stringify(inPool.tree)).not.toContain('"position"')
    expect(JSON.stringify(inPool.tree)).toContain('"kbsync"')
  })

  it('a body whose references are not the ones the scan read is refused, as bodyTree refuses it', async () => {
    const node = nodeOf(false)
    await expect(bodyTreeInPool(node)).rejects.toThrow(/the body holds 3 local references, but the scan read 0/)
    expect(node.tree).toBeUndefined()
  })
})

/**
 * The sources a pull gives back for published diagrams are found with one
 * listing of `.kbsync/diagrams/` (issue 32): a state naming thousands of
 * files made no path walk per file and kind, which a no-op pull paid for
 * every image of the folder. Path checks are counted at `existsInside`.
 */
import {afterAll, describe, expect, it, vi} from 'vitest'
import {emptyState} from '../../src/local/index.js'
import {diagramSources, keepSource} from '../../src/diagrams/sources.js'
import {diagramKey} from '../../src/diagrams/mermaid-source.js'
import {temporaryFolders} from '../temp-folders.js'

const checks = vi.hoisted(() => ({paths: 0}))
vi.mock('../../src/local/index.js', async (original) => {
  const actual = await original<typeof import('../../src/local/index.js')>()
  const {counting} = await import('../call-counts.js')
  return {...actual, existsInside: counting(checks, 'paths', actual.existsInside)}
})

const temporary = temporaryFolders('diagram-listing')
afterAll(() => temporary.removeAll())

const hex = (n: number) => n.toString(16).padStart(64, '0')

describe('the diagram sources of a folder', () => {
  it('are found with one listing, however many files the state names', async () => {
    const dir = await temporary.make()
    const source = 'flowchart LR\n  a --> b'
    const key = diagramKey('mermaid', source)
    keepSource(dir, key, source)
    const state = emptyState(null)
    for (let index = 0; index < 300; index++)
      state.assets[hex(index)] = {url: `https://files/${index}`, guid: hex(index)}
    state.assets[key] = {url: 'https://files/diagram', guid: key}
    checks.paths = 0
    const sources = diagramSources(dir, state)
    expect(sources.get('https://files/diagram')).toEqual({kind: 'mermaid', source})
    expect(sources.size).toBe(1)
    expect(checks.paths).toBeLessThanOrEqual(2)
  })

  it('are none when the folder keeps no diagram', async () => {
    const dir = await temporary.make()
    const state = emptyState(null)
    for (let index = 0; index < 50; index++)
      state.assets[hex(index)] = {url: `https://files/${index}`, guid: hex(index)}
    expect(diagramSources(dir, state).size).toBe(0)
  })
})

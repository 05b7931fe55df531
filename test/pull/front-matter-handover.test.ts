/**
 * The check after a pull takes the front matter of each file the pull wrote
 * from the fields it wrote it from (`front-matter-handover.ts`), not from a
 * parse of the YAML: the facts handed over are those a parse finds (a law
 * over titles and ids), and a pull parses no YAML of the files it writes
 * (through the CLI in-process against the local server; YAML reads counted
 * at the trust layer's door, which front matter goes through).
 */
import {writeFile} from 'node:fs/promises'
import path from 'node:path'
import fc from 'fast-check'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {FrontMatterCache} from '../../src/local/index.js'
import {readFrontMatter} from '../../src/local/front-matter.js'
import {documentText} from '../../src/sync/shared/document-files.js'
import {handOverWrittenFrontMatter} from '../../src/sync/pull/front-matter-handover.js'
import {cli} from '../e2e/push-helpers.js'
import {useLocalServer} from '../e2e/local-server.js'
import {temporaryFolders} from '../temp-folders.js'

const reads = vi.hoisted(() => ({yaml: 0}))
vi.mock('../../src/trust/index.js', async (original) => {
  const actual = await original<typeof import('../../src/trust/index.js')>()
  const {counting} = await import('../call-counts.js')
  return {...actual, readYaml: counting(reads, 'yaml', actual.readYaml)}
})

const local = useLocalServer()
const temporary = temporaryFolders('pull-front-matter')
afterAll(() => temporary.removeAll())

const titles = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '123',
    'true',
    'null',
    '~',
    '- item',
    '#note',
    'a: b',
    "it's",
    '"quoted"',
    ' padded ',
    '2024-01-01',
    '0x1F'
  ),
  fc.string({
    unit: fc.constantFrom('a', ' ', ':', '#', "'", '"', '-', '[', '{', '&', '*', '!', '|', '>', '%', '@', '\\t')
  })
)
const ids = fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/), {nil: undefined})

describe('the front matter a pull hands over', () => {
  it('is what a parse of the written file finds', async () => {
    const cache = await FrontMatterCache.load(await temporary.make())
    fc.assert(
      fc.property(titles, ids, fc.constantFrom('', 'Body.'), (title, id, body) => {
        const text = documentText({title, ...(id !== undefined ? {id} : {})}, body)
        const parsed = readFrontMatter(text, 'a.md', [])
        handOverWrittenFrontMatter({title, ...(id !== undefined ? {id} : {})}, text)
        expect(readFrontMatter(text, 'a.md', [], cache)).toEqual(parsed)
      }),
      {numRuns: 2000}
    )
  })
})

describe('a pull', () => {
  let root: string
  beforeAll(async () => {
    const client = local.client
    root = (await client.createItem({type: 'topic', title: 'Handover', parent_topic_id: null})).id
    for (let index = 0; index < 20; index++)
      await client.createItem({type: 'article', title: `Page ${index}`, parent_topic_id: root, body: `Text ${index}.`})
  })

  it('parses no YAML of the files it writes', async () => {
    const dir = await temporary.make()
    reads.yaml = 0
    const pulled = await cli(['pull', dir, '--root-topic', root], local.env)
    expect(pulled.code, pulled.err).toBe(0)
    expect(reads.yaml).toBe(0)
    // The counter sees the scans' parses: the next pull finds the blocks recorded, and an edited block is parsed.
    await writeFile(path.join(dir, 'Page 3.md'), '---\ntitle: Page three\n---\n\nText 3.\n')
    const again = await cli(['pull', dir, '--root-topic', root], local.env)
    expect(again.code, again.err).not.toBe(2)
    expect(reads.yaml).toBeGreaterThan(0)
  })
})

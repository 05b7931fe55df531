/**
 * End-to-end: a tree written for docs sites (Docusaurus and VitePress
 * containers, MkDocs admonitions, Obsidian callouts, MDX, Liquid and
 * kramdown, mdBook includes from outside the folder) pushed through the CLI
 * to the real local server: the stored bodies hold the dialect's blocks and
 * the included code, no docs-tool syntax is left as text, the warnings name
 * file and line, and a changed listing re-renders exactly the article that
 * includes it.
 */
import {mkdir, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import type {StructureNode} from '../../src/api/types.js'
import {startServer} from '../../src/server/index.js'
import {bodyOf, cli, copyFixture, flatten} from './push-helpers.js'

type Server = Awaited<ReturnType<typeof startServer>>

let server: Server
let env: NodeJS.ProcessEnv
let client: KbClient
let repo: string

beforeAll(async () => {
  server = await startServer({port: 0})
  env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: server.token}
  client = KbClient.fromEnv(env)
  repo = await copyFixture('fixtures/trees/site-syntax')
  await mkdir(path.join(repo, '.git'))
})

afterAll(async () => {
  await client?.close()
  await server?.close()
  if (repo) await rm(repo, {recursive: true, force: true})
})

/** The stored bodies under `root`, by title. */
async function bodies(root: string): Promise<Record<string, string>> {
  const tree: StructureNode[] = await client.getTree(root)
  const result: Record<string, string> = {}
  for (const entry of flatten(tree))
    if (entry.type === 'article') result[entry.titlePath] = bodyOf(await client.getItem(entry.id))
  return result
}

describe('a docs-site tree pushed as it is', () => {
  let root: string
  let first: Awaited<ReturnType<typeof cli>>

  beforeAll(async () => {
    root = (await client.createItem({type: 'topic', title: 'Site syntax', parent_topic_id: null})).id
    first = await cli(['push', path.join(repo, 'book'), '--root-topic', root, '--verbose'], env)
  })

  it('pushes with exit 0, warning about the missing include and the template syntax at their lines', () => {
    expect(first.code).toBe(0)
    expect(first.err + first.out).toMatch(/guide\.md:20\b.*include-missing|include-missing[\s\S]*guide\.md:20\b/)
    expect(first.err + first.out).toMatch(/jekyll\.md:3\b/)
  })

  it('stores hint blocks, expanding blocks and the included code; no docs-tool syntax is left as text', async () => {
    const stored = await bodies(root)
    const guide = stored['Guide']!
    expect(guide).toContain(
      '<div data-node="hintBlock" data-color="green">\n\n**What you will learn**\n\n- Containers become hint blocks'
    )
    expect(guide).toContain(
      '<div data-node="hintBlock" data-color="orangeYellow">\n\n**Back up first**\n\nIndented content, not code.'
    )
    expect(guide).toContain('<summary>Why a details block?</summary>')
    expect(guide).toContain('```rust\nfn main() {\n    println!("Hello, world!");\n}\n```')
    expect(stored['MDX page']).toContain('<summary>More</summary>')
    expect(stored['Jekyll page']).toContain(
      '<div data-node="hintBlock" data-color="orangeYellow">\n\nCareful with this.'
    )
    for (const body of Object.values(stored)) {
      expect(body).not.toMatch(/^\s*(?::::|!!!|\?\?\?)|\{\{#|^import |\{\/\*|ANCHOR|\{:/m)
    }
  })

  it('a second push writes nothing; a changed listing updates the one article that includes it', async () => {
    server.resetLog()
    expect((await cli(['push', path.join(repo, 'book'), '--root-topic', root], env)).code).toBe(0)
    expect(server.counts().writes).toBe(0)
    await writeFile(path.join(repo, 'listings/hello.rs'), '// ANCHOR: main\nfn main() {}\n// ANCHOR_END: main\n')
    server.resetLog()
    expect((await cli(['push', path.join(repo, 'book'), '--root-topic', root], env)).code).toBe(0)
    expect(server.counts().writes).toBe(1)
    expect((await bodies(root))['Guide']).toContain('```rust\nfn main() {}\n```')
  })
})

/**
 * A folder pulled from one knowledge base pushes to a second, empty one
 * without edits (issue 31, "Ids per knowledge base"): the `kb_id`s the pull
 * wrote are the first one's, so the second treats those files as new items
 * (one counted info line), records its own ids in its state and rewrites no
 * file; then neither knowledge base has anything left to write. The two
 * servers draw ids from the same seed, so the ids of one name other items on
 * the other: a `kb_id` of A must never match an item of B by chance.
 */
import {readFile, readdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'
import {temporaryFolders} from '../temp-folders.js'
import {copyTree, corpus, ownSites, type DocsTree} from './docs-sites.js'
import {cli} from './push-helpers.js'

/** Our Jekyll site, and the real one when the corpora are there. */
const trees = [ownSites.jekyll, corpus('jekyll-docs', '.')].filter((tree): tree is DocsTree => tree !== undefined)

type Server = Awaited<ReturnType<typeof startServer>>
interface Kb {
  server: Server
  env: NodeJS.ProcessEnv
  client: KbClient
  root: string
}

const kbs: Kb[] = []
const temporary = temporaryFolders('second-kb')

async function startKb(): Promise<Kb> {
  // The same seed on both: the same ids, for different items.
  const server = await startServer({port: 0, seed: 31})
  const env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: server.token}
  const client = KbClient.fromEnv(env)
  const root = (await client.createItem({type: 'topic', title: 'Docs', parent_topic_id: null})).id
  const kb = {server, env, client, root}
  kbs.push(kb)
  return kb
}

afterAll(async () => {
  for (const kb of kbs) {
    await kb.client.close()
    await kb.server.close()
  }
  await temporary.removeAll()
})

/** The text of every file under `dir` but the state, by relative path. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (const entry of await readdir(dir, {recursive: true, withFileTypes: true})) {
    const full = path.join(entry.parentPath, entry.name)
    const rel = path.relative(dir, full)
    if (entry.isFile() && !rel.startsWith('.kbsync')) files.set(rel, await readFile(full, 'utf8'))
  }
  return files
}

const writes = (kb: Kb) => kb.server.requestLog().filter((entry) => entry.write).length

describe.each(trees.map((tree) => [tree.name, tree] as const))(
  'a folder (%s) pulled from one knowledge base, pushed to another',
  (_, tree) => {
    let a: Kb
    let b: Kb
    let pulled: string
    beforeAll(async () => {
      a = await startKb()
      b = await startKb()
      expect(b.root).toBe(a.root)
      const docs = await copyTree(tree, await temporary.make(), 'docs')
      const pushed = await cli(['push', docs, '--root-topic', a.root, '--broken-links=warn'], a.env)
      expect(pushed.code, pushed.err).toBe(0)
      pulled = path.join(await temporary.make(), 'docs')
      const pull = await cli(['pull', pulled, '--root-topic', a.root], a.env)
      expect(pull.code, pull.err).toBe(0)
    }, 120_000)

    it('pushes to an empty second one, once, and leaves both with nothing to write', async () => {
      const before = await snapshot(pulled)
      const pinned = [...before.values()].filter((text) => /^kb_id: /m.test(text)).length
      const first = await cli(['push', pulled, '--root-topic', b.root, '--broken-links=warn'], b.env)
      expect(first.code, first.err).toBe(0)
      expect(first.err).not.toMatch(/unknown-kb-id/)
      // One line for every such file, counted; never one per file.
      const lines = first.err.split('\n').filter((line) => line.includes('kb-id-other-target'))
      expect(lines).toHaveLength(pinned > 0 ? 1 : 0)
      if (pinned > 0) expect(lines[0]).toContain(`${pinned} files carry the kb_id of another knowledge base`)
      // Every document is on B now, under B's own ids.
      const itemsOfB = b.server.items().length
      expect(itemsOfB).toBe(a.server.items().length)
      expect(await snapshot(pulled)).toEqual(before)

      b.server.resetLog()
      const again = await cli(['push', pulled, '--root-topic', b.root, '--broken-links=warn'], b.env)
      expect(again.code, again.err).toBe(0)
      expect(writes(b)).toBe(0)
      expect(b.server.items().length).toBe(itemsOfB)

      a.server.resetLog()
      const home = await cli(['push', pulled, '--root-topic', a.root, '--broken-links=warn'], a.env)
      expect(home.code, home.err).toBe(0)
      expect(writes(a)).toBe(0)
      expect(home.err).not.toMatch(/kb-id-other-target/)
      expect(await snapshot(pulled)).toEqual(before)

      // With a state, ids in front matter are not needed for identity: without them, neither has anything to write.
      for (const [file, text] of before)
        if (file.endsWith('.md')) await writeFile(path.join(pulled, file), text.replace(/^kb_id: .*\n/m, ''))
      for (const kb of [a, b]) {
        kb.server.resetLog()
        const bare = await cli(['push', pulled, '--root-topic', kb.root, '--broken-links=warn'], kb.env)
        expect(bare.code, bare.err).toBe(0)
        expect(writes(kb)).toBe(0)
      }
    }, 180_000)

    it('keeps an unknown kb_id an error where no state explains it', async () => {
      const dir = await temporary.make()
      // An id neither knowledge base has: no state says whose it is.
      await writeFile(path.join(dir, 'page.md'), '---\ntitle: Page\nkb_id: NoSuchItem31\n---\n\nText.\n')
      const result = await cli(['push', dir, '--root-topic', b.root, '--dry-run', '--broken-links=warn'], b.env)
      expect(result.code).toBe(2)
      expect(result.err).toMatch(/unknown-kb-id|is not an item under the configured root/)
    })
  }
)

/**
 * A push parses each body it writes once (issue 32). The scan parses every
 * changed body to learn its references; the write needs the same tree
 * rendered with its links' ids. The scan kept a bounded number of trees
 * (256), and the write parsed every other body again: push CPU grew faster
 * than the folder, the second parse's garbage filling the collector. The
 * scan of a push now keeps the whole render of each body it parses, link
 * ids left out, and the write fills them in. Through the library's push
 * against the real local server, at two sizes: the renders parse nothing
 * at either; what is stored is byte for byte what the tree renders to (the
 * same folder pushed through a plan that keeps no render), notice and all.
 */
import {afterAll, describe, expect, it} from 'vitest'
import {scanParses} from '../../src/local/index.js'
import {bodyTreeParses} from '../../src/local/markdown.js'
import {applyPush, planPush, push} from '../../src/sync/index.js'
import type {PushOptions} from '../../src/sync/index.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'
import {useLocalServer} from './local-server.js'
import {bodyOf} from './push-helpers.js'

const local = useLocalServer()
const folders = temporaryFolders('push-one-parse')
afterAll(() => folders.removeAll())

/**
 * `count` articles in topics of ten, each linking to the one before it (no
 * link cycle: each is created whole), to its topic and out of the folder;
 * an inline code span makes each body one the scan parses.
 */
async function chainFolder(count: number): Promise<string> {
  const dir = await folders.make()
  const files: Record<string, string> = {}
  const pathOf = (page: number) => `part-${Math.floor(page / 10)}/page-${page}.md`
  for (let page = 0; page < count; page++) {
    const back = page > 0 ? `Back to [page ${page - 1}](../${pathOf(page - 1)}).` : 'The first page.'
    files[pathOf(page)] = [
      `# Page ${page}`,
      '',
      `Run \`make page-${page}\` first. ${back}`,
      '',
      `| Page | Where |\n| --- | --- |\n| ${page} | [here](https://example.com/${page}) |`,
      '',
      `- Its *own* [topic](./).`,
      ''
    ].join('\n')
  }
  files['index.md'] = '# Home\n\nRun `make`, then start at [page 0](part-0/page-0.md).\n'
  await writeFiles(dir, files)
  return dir
}

/** The bodies stored under `topicId`, by title, each article link's id replaced with the title it links to. */
async function storedBodies(topicId: string): Promise<Map<string, string>> {
  const items = new Map<string, {title: string; body: string}>()
  const stack = [topicId]
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    for (const child of await local.client.getChildren(id)) {
      const item = await local.client.getItem(child.id)
      items.set(child.id, {title: item.title, body: bodyOf(item)})
      if (item.type === 'topic') stack.push(child.id)
    }
  }
  const titleOf = (id: string) => items.get(id)?.title ?? (id === topicId ? 'ROOT' : 'UNKNOWN')
  const byTitle = new Map<string, string>()
  for (const {title, body} of items.values())
    byTitle.set(
      title,
      body.replace(/(data-(?:article|topic)-id=")([^"]+)"/g, (_, attr, id) => `${attr}${titleOf(id)}"`)
    )
  return byTitle
}

/** Pushes `dir` under a new root topic (`keepRenders`: as `push` does, else through a plan that keeps none). */
async function pushUnder(dir: string, keepRenders: boolean): Promise<Pushed> {
  const rootTopicId = (await local.client.createItem({type: 'topic', title: 'one-parse', parent_topic_id: null})).id
  let provisional = 0
  const options: PushOptions = {
    dir,
    client: local.client,
    rootTopicId,
    concurrency: 4,
    notice: true,
    onEvent: (event) => {
      if (event.type === 'done' && event.note?.startsWith('created without the links')) provisional++
    }
  }
  const [scanned, rendered] = [scanParses(), bodyTreeParses()]
  const result = keepRenders ? await push(options) : await applyPush(await planPush(options), options)
  expect(result.failed).toEqual([])
  return {rootTopicId, render: bodyTreeParses() - rendered, scan: scanParses() - scanned, provisional}
}

/** What a push of the chain did. */
interface Pushed {
  rootTopicId: string
  /** Bodies parsed for a render, and by the scan. */
  render: number
  scan: number
  /** Documents created before the one they link to (a long chain is cut so its creates run side by side). */
  provisional: number
}

describe('a push', () => {
  it.each([30, 300])(
    'of %i articles parses each body once, and stores what its tree renders to',
    async (count) => {
      const dir = await chainFolder(count)
      const once = await pushUnder(dir, true)
      expect(once.scan).toBe(count + 1)
      // A provisional create cuts its links to documents without an id out of the template: no parse either.
      // Before: every body past the 256 trees the scan kept was parsed again for its write too (44 more at 300),
      // and each provisional create parsed its body again.
      expect(once.render).toBe(0)
      if (count === 300) expect(once.provisional).toBeGreaterThan(0)
      expect(once.provisional).toBeLessThan(count / 20)
      const again = await push({dir, client: local.client, rootTopicId: once.rootTopicId, concurrency: 4, notice: true})
      expect(again.failed).toEqual([])
      expect(again.writes).toBe(0)
      // The same folder through a plan that keeps no render: each body rendered from its tree.
      const fromTrees = await pushUnder(dir, false)
      const [filled, rendered] = [await storedBodies(once.rootTopicId), await storedBodies(fromTrees.rootTopicId)]
      expect(filled.size).toBe(count + 1 + Math.ceil(count / 10))
      expect([...filled].sort()).toEqual([...rendered].sort())
      expect(filled.get('Page 1')).toContain('data-article-id="Page 0"')
    },
    180_000
  )
})

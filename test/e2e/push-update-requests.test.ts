/**
 * What an overwrite costs: a push that changes every file sends one PUT per
 * file and a listing per topic for its last look, never a read of each item;
 * a web edit made between the plan and the writes is still caught (the
 * listing shows its `updated_at`, the item is read and left alone). Through
 * the real HTTP client against the real local server.
 */
import {appendFile, mkdir, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {applyPush, planPush} from '../../src/sync/index.js'
import {useLocalServer} from './local-server.js'
import {flatten} from './push-helpers.js'

const local = useLocalServer()
const folders: string[] = []
afterAll(async () => {
  for (const dir of folders) await rm(dir, {recursive: true, force: true})
})

const TOPICS = 3
const PER_TOPIC = 5

/** `TOPICS` folders of `PER_TOPIC` plain pages; returns their paths. */
async function tree(): Promise<{dir: string; pages: string[]}> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-update-requests-'))
  folders.push(dir)
  const pages: string[] = []
  for (let t = 0; t < TOPICS; t++) {
    await mkdir(path.join(dir, `part-${t}`))
    for (let i = 0; i < PER_TOPIC; i++) {
      const page = path.join(dir, `part-${t}`, `page-${i}.md`)
      await writeFile(page, `# Page ${t}.${i}\n\nSome words of page ${t}.${i}.\n`)
      pages.push(page)
    }
  }
  return {dir, pages}
}

/** Plans and applies a push of `dir` under `root` through a client of its own; returns the result and its requests. */
async function push(dir: string, root: string, between?: () => Promise<void>) {
  const client = KbClient.fromEnv(local.env)
  try {
    const options = {dir, client, rootTopicId: root, concurrency: 4}
    const plan = await planPush(options)
    await between?.()
    const result = await applyPush(plan, options)
    return {result, byEndpoint: client.stats().byEndpoint}
  } finally {
    await client.close()
  }
}

/** A tree pushed once, its writes then older than the second `updated_at` can tell apart. */
async function pushedTree(title: string) {
  const {dir, pages} = await tree()
  const root = (await local.client.createItem({type: 'topic', title, parent_topic_id: null})).id
  expect((await push(dir, root)).result.status).toBe('ok')
  await new Promise((resolve) => setTimeout(resolve, 2100))
  return {dir, pages, root}
}

describe('overwrites', () => {
  it('of every file cost one PUT each and a listing per topic, no read of each item', async () => {
    const {dir, pages, root} = await pushedTree('every file changed')
    for (const page of pages) await appendFile(page, '\nChanged.\n')
    const {result, byEndpoint} = await push(dir, root)
    expect(result.status).toBe('ok')
    expect(byEndpoint['PUT /knowledgebase/{id}']).toBe(pages.length)
    expect(byEndpoint['GET /knowledgebase/{id}'] ?? 0).toBe(0)
    // The plan's tree, then the topics' listings of the last looks (one each, but for a slow second one).
    expect(byEndpoint['GET /knowledgebase/structure']).toBeLessThanOrEqual(1 + 2 * TOPICS)
  }, 60_000)

  it('still leave alone an item edited on the web between the plan and the write', async () => {
    const {dir, pages, root} = await pushedTree('edited after the plan')
    const [edited, other] = [pages[1]!, pages[PER_TOPIC + 2]!]
    await appendFile(edited, '\nChanged here.\n')
    await appendFile(other, '\nChanged here too.\n')
    const entries = flatten(await local.client.getTree(root))
    const id = entries.find((entry) => entry.titlePath.endsWith('Page 0.1'))!.id
    const {result} = await push(dir, root, async () => {
      await local.client.updateItem(id, {body: 'Edited on the web.'})
    })
    expect(result.status).toBe('conflict')
    expect((await local.client.getItem(id)).body).toContain('Edited on the web.')
    expect(await readFile(edited.replace(/\.md$/, '.remote.md'), 'utf8')).toContain('Edited on the web.')
    const otherId = entries.find((entry) => entry.titlePath.endsWith('Page 1.2'))!.id
    expect((await local.client.getItem(otherId)).body).toContain('Changed here too.')
  }, 60_000)
})

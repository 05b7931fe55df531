/**
 * A push holds a document's body only while the document is in flight: the
 * plan lets go of every body its file can give again, the write reads it
 * back, checked against the hash the scan took; a file edited between the
 * plan and its write is reported, not written, and the next push takes it.
 * Through the library's push (its `inspect` and `onEvent` hooks are where a
 * run can be watched from) against the real local server.
 */
import {appendFile, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {generateScaleTree} from '../../bench/scale-tree.js'
import type {LocalNode} from '../../src/local/index.js'
import {applyPush, contextOf, planPush} from '../../src/sync/index.js'
import {useLocalServer} from './local-server.js'
import {cli, flatten} from './push-helpers.js'

const local = useLocalServer()
const folders: string[] = []
afterAll(async () => {
  for (const dir of folders) await rm(dir, {recursive: true, force: true})
})

async function scaleTree(articles: number): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-bodies-held-'))
  folders.push(dir)
  await generateScaleTree(dir, articles, 10)
  return dir
}

async function rootTopic(title: string): Promise<string> {
  return (await local.client.createItem({type: 'topic', title, parent_topic_id: null})).id
}

describe('the bodies a push holds', () => {
  it('are only those of documents in flight: none past the plan, each read again for its write and let go once sent', async () => {
    const dir = await scaleTree(40)
    // A body assembled from another file is held (its file alone does not give it): an mdBook include.
    await writeFile(path.join(dir, 'topic-0', 'shared.txt'), 'Included text, with **bold**.\n')
    await writeFile(path.join(dir, 'topic-0', 'with-include.md'), '# With include\n\n{{#include shared.txt}}\n')
    const concurrency = 4
    const options = {dir, client: local.client, rootTopicId: await rootTopic('held'), concurrency}
    const plan = await planPush(options)
    const nodes: LocalNode[] = Object.values(contextOf(plan).scan.byPath)
    // The plan creates every document: of all their bodies, only the assembled one is still held.
    expect(nodes.filter((node) => node.body !== undefined).map((node) => node.path)).toEqual([
      'topic-0/with-include.md'
    ])
    expect(nodes.filter((node) => node.bodyKey !== undefined).length).toBeGreaterThan(40)
    // In flight: started, or created provisionally (its links to documents not created yet as text) and waiting for its whole write.
    const inFlight = new Set<string>()
    const written = new Set<string>()
    let worst = 0
    const look = () => {
      // A document not in flight may hold its body only as one of the next in line (rendered ahead, one per slot).
      const ahead = nodes.filter(
        (node) => !inFlight.has(node.path) && !written.has(node.path) && node.body !== undefined
      )
      worst = Math.max(worst, ahead.filter((node) => node.path !== 'topic-0/with-include.md').length)
      for (const path of written) if (byPath[path]) expect(byPath[path].body, path).toBeUndefined()
    }
    const byPath = contextOf(plan).scan.byPath
    const result = await applyPush(plan, {
      ...options,
      onEvent: (event) => {
        const provisional = event.type === 'done' && event.note?.startsWith('created without the links')
        if (event.type === 'start' || provisional) inFlight.add(event.op.path)
        else if (event.type === 'done' || event.type === 'failed') {
          inFlight.delete(event.op.path)
          written.add(event.op.path)
        }
        look()
      }
    })
    expect(result.failed).toEqual([])
    expect(result.status).toBe('ok')
    expect(worst).toBeLessThanOrEqual(concurrency)
    for (const node of nodes) expect(node.body, node.path).toBeUndefined()
    // What was written is each file's text: the include expanded, the bodies read back whole.
    const entries = flatten(await local.client.getTree(null))
    const included = entries.find((entry) => entry.titlePath.endsWith(' / With include'))!
    expect((await local.client.getItem(included.id)).body).toContain('Included text')
    const page = entries.find((entry) => / \/ Page 7: /.test(entry.titlePath))!
    const sentence = (await readFile(path.join(dir, 'topic-0', 'page-7.md'), 'utf8')).split('\n')[2]!
    expect((await local.client.getItem(page.id)).body).toContain(sentence.slice(0, 40))
  }, 120_000)

  it('reports a file edited between the plan and its write, writes the others, and the next push takes it', async () => {
    const dir = await scaleTree(20)
    const root = await rootTopic('edited during')
    // Plain prose: the scan reads it by a pattern and keeps no parsed tree, so only its file gives its text again.
    const edited = path.join(dir, 'topic-1', 'plain.md')
    await writeFile(edited, '# Plain page\n\nJust words, nothing to parse.\n')
    const options = {dir, client: local.client, rootTopicId: root, concurrency: 2}
    const plan = await planPush(options)
    // After the plan, before any write: the author saves the file.
    await appendFile(edited, '\nAdded while the push ran.\n')
    const first = await applyPush(plan, options)
    expect(first.status).toBe('failed')
    expect(first.failed.map((failure) => failure.op.path)).toEqual(['topic-1/plain.md'])
    expect(first.failed[0]!.error).toMatch(/topic-1\/plain\.md changed while the push ran .*the next push takes it/)
    expect(first.done.filter((op) => op.op === 'create').length).toBeGreaterThan(20)

    const env = {...local.env}
    const second = await cli(['push', dir, '--root-topic', root], env)
    expect(second.code, second.err).toBe(0)
    const entries = flatten(await local.client.getTree(null))
    const page = entries.filter((entry) => entry.titlePath.endsWith(' / Plain page'))
    expect(page).toHaveLength(1)
    expect((await local.client.getItem(page[0]!.id)).body).toContain('Added while the push ran.')
    const third = await cli(['push', dir, '--root-topic', root], env)
    expect(third.code, third.err).toBe(0)
    expect(third.out).toMatch(/Done: 0 steps, 0 write requests/)
  }, 120_000)
})

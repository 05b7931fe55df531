/**
 * Faults: 10% failures (500s, connections dropped before and after the write)
 * and a low rate limit. A batch of creates, updates, uploads and permission
 * changes all completes; no item is duplicated; no write is applied twice.
 */
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, expect, it} from 'vitest'
import type {RequestLogEntry} from '../../src/server/index.js'
import {KbClient, type ClientEvent, type KbItem} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'

type Running = Awaited<ReturnType<typeof startServer>>
let server: Running
let client: KbClient
let dir = ''
const events: ClientEvent[] = []

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kbsync-faults-'))
  server = await startServer({
    port: 0,
    latencyMs: 1,
    failRate: 0.1,
    failModes: ['500', 'drop-before', 'drop-after'],
    seed: 42,
    rateLimit: {limit: 60, windowSeconds: 1}
  })
  // This server's 500s are random and pass (the platform's refuse a body for good: one retry by default).
  client = new KbClient({
    apiUrl: server.apiUrl,
    filesUrl: server.filesUrl,
    token: server.token,
    retryBaseMs: 20,
    retries: 6,
    writeServerErrorRetries: 5,
    concurrency: 8,
    onEvent: (e) => events.push(e)
  })
})

afterAll(async () => {
  await client?.close()
  await server?.close()
  await rm(dir, {recursive: true, force: true})
})

it('a batch of ~100 writes under faults and a low rate limit completes without duplicates or doubled writes', async () => {
  const started = Date.now()
  const topics = await Promise.all(
    Array.from({length: 6}, (_, i) => client.createItem({type: 'topic', title: `Topic ${i}`}))
  )
  const articles: KbItem[] = await Promise.all(
    Array.from({length: 36}, (_, i) =>
      client.createItem({
        type: 'article',
        title: `Article ${i}`,
        parent_topic_id: topics[i % topics.length]!.id,
        body: `Body ${i}`
      })
    )
  )
  const files = await Promise.all(
    Array.from({length: 12}, async (_, i) => {
      const file = path.join(dir, `f${i}.txt`)
      await writeFile(file, `file ${i} `.repeat(100 + i))
      return file
    })
  )
  const uploads = await Promise.all(files.map((f) => client.uploadFile(f)))
  const updated = await Promise.all(
    articles.map((a, i) =>
      client.updateItem(a.id, {body: i < uploads.length ? `Body ${i} ![f](${uploads[i]!.guid})` : `Body ${i} v2`})
    )
  )
  await Promise.all(topics.map((t) => client.setPermissions(t.id, {inherit: false, readers: [], editors: []})))
  const moved = await Promise.all(
    articles.slice(0, 6).map((a, i) => client.moveItem(a.id, topics[(i + 1) % topics.length]!.id))
  )
  const elapsed = Date.now() - started

  // Every operation completed with the expected result.
  expect(updated.every((a, i) => a.body?.includes(i < uploads.length ? 'services/kb?Id=' : 'v2'))).toBe(true)
  expect(moved.every((a, i) => a.parent_topic_id === topics[(i + 1) % topics.length]!.id)).toBe(true)

  // No duplicates: exactly one item per title on the server.
  const items = server.items()
  const titles = items.map((i: {title: string}) => i.title)
  expect(new Set(titles).size).toBe(titles.length)
  expect(titles.filter((t: string) => t.startsWith('Article '))).toHaveLength(36)
  expect(titles.filter((t: string) => t.startsWith('Topic '))).toHaveLength(6)

  // No write applied twice: per item, the server applied exactly the writes asked for
  // (an answer of 200, or a connection dropped after the write was applied).
  const applied = appliedWrites(server.requestLog())
  expect(applied.get('POST /v4/knowledgebase')).toBe(42)
  articles.forEach((a, i) => expect(applied.get(`PUT /v4/knowledgebase/${a.id}`), a.title).toBe(i < 6 ? 2 : 1))
  topics.forEach((t) => expect(applied.get(`PUT /v4/knowledgebase/${t.id}/permissions`), t.title).toBe(1))
  expect(server.requestLog().filter((e) => e.faulted).length).toBeGreaterThan(5)

  // The faults really happened, and the client really worked around them.
  const stats = client.stats()
  expect(stats.retries).toBeGreaterThan(5)
  expect(events.some((e) => e.type === 'retry' && e.status === undefined)).toBe(true) // dropped connections
  expect(events.some((e) => e.status === 429) || stats.rateLimitWaits > 0).toBe(true)
  expect(elapsed).toBeLessThan(25_000)
})

/** Writes the server applied per `METHOD path`: answered 200, or applied before the connection was dropped. */
function appliedWrites(log: RequestLogEntry[]): Map<string, number> {
  const applied = new Map<string, number>()
  for (const entry of log) {
    if (!entry.write || (entry.status !== 200 && entry.faulted !== 'drop-after')) continue
    const key = `${entry.method} ${entry.path.split('?')[0]}`
    applied.set(key, (applied.get(key) ?? 0) + 1)
  }
  return applied
}

it('answers lost after the write (30% drop-after): creates found, not repeated; updates not applied twice', async () => {
  const lossy = await startServer({port: 0, failRate: 0.3, failModes: ['drop-after'], seed: 7})
  const c = new KbClient({apiUrl: lossy.apiUrl, token: lossy.token, retryBaseMs: 5, retries: 10})
  try {
    const topic = await c.createItem({type: 'topic', title: 'Lossy'})
    const made: KbItem[] = []
    for (let i = 0; i < 10; i++)
      made.push(await c.createItem({type: 'article', title: `Lossy ${i}`, parent_topic_id: topic.id, body: `v1 ${i}`}))
    for (const item of made) await c.updateItem(item.id, {body: `${item.title} v2`})
    const log = lossy.requestLog()
    expect(log.filter((e) => e.write && e.faulted === 'drop-after').length).toBeGreaterThan(0)
    const applied = appliedWrites(log)
    expect(applied.get('POST /v4/knowledgebase')).toBe(11)
    for (const item of made) expect(applied.get(`PUT /v4/knowledgebase/${item.id}`), item.title).toBe(1)
    const items = lossy.items()
    expect(items).toHaveLength(11)
    expect(items.filter((i) => i.type === 'article').every((i) => i.body === `${i.title} v2` && i.version === 2)).toBe(
      true
    )
  } finally {
    await c.close()
    await lossy.close()
  }
})

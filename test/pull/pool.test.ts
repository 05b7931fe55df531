/**
 * A pull's requests share one bounded pool (issue 19): record reads,
 * permission reads and downloads run side by side, never more than the
 * concurrency at once, and the folder is the one a pull one request at a
 * time writes. Against the local server, through a client that notes which
 * calls are in flight.
 */
import {writeFile} from 'node:fs/promises'
import path from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import type {KbClient} from '../../src/api/index.js'
import {pull, type PullClient} from '../../src/sync/pull/index.js'
import {snapshot} from './folder-snapshot.js'
import {serverSuite} from './server-suite.js'

const suite = serverSuite('pull-pool')
let root: string

beforeAll(async () => {
  const client = suite.client()
  root = (await client.createItem({type: 'topic', title: 'Pooled', parent_topic_id: null})).id
  const scratch = await suite.folder()
  for (let t = 0; t < 3; t++) {
    const topic = (
      await client.createItem({type: 'topic', title: `Topic ${t}`, parent_topic_id: root, body: `About ${t}.`})
    ).id
    for (let a = 0; a < 5; a++) {
      const name = `pic-${t}-${a}.png`
      await writeFile(path.join(scratch, name), `bytes ${t} ${a}`)
      const {guid} = await client.uploadFile(path.join(scratch, name), {name})
      await client.createItem({
        type: 'article',
        title: `Page ${t}.${a}`,
        parent_topic_id: topic,
        body: `Page ${a} of topic ${t}.\n\n![pic](${guid})`
      })
    }
  }
})

/** Which kinds of call were in flight together, and the most at once. */
interface Flight {
  together: Set<string>
  most: number
}

/** `client`, each call held `delayMs` longer, noting in `flight` what runs at the same time. */
function watched(client: KbClient, delayMs: number, flight: Flight): PullClient {
  const running = new Map<string, number>()
  const track =
    <A extends unknown[], R>(kind: string, call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      running.set(kind, (running.get(kind) ?? 0) + 1)
      const kinds = [...running].filter(([, n]) => n > 0).map(([k]) => k)
      for (const other of kinds) if (other !== kind) flight.together.add([kind, other].sort().join('+'))
      flight.most = Math.max(
        flight.most,
        [...running.values()].reduce((a, b) => a + b, 0)
      )
      try {
        await new Promise((resolve) => setTimeout(resolve, delayMs))
        return await call(...args)
      } finally {
        running.set(kind, running.get(kind)! - 1)
      }
    }
  return {
    getTree: track('structure', (parent: string | null) => client.getTree(parent)),
    getItem: track('record', (id: string) => client.getItem(id)),
    getPermissions: track('permissions', (id: string) => client.getPermissions(id)),
    downloadFile: track('download', (url: string, dest: string) => client.downloadFile(url, dest))
  }
}

describe('one pool for a pull', () => {
  it('reads records and permissions and downloads files side by side, at most the concurrency at once, and writes the folder a one-at-a-time pull writes', async () => {
    const flight: Flight = {together: new Set(), most: 0}
    const pooled = await suite.folder()
    const result = await pull({
      dir: pooled,
      client: watched(suite.client(), 5, flight),
      rootTopicId: root,
      concurrency: 4
    })
    expect(result.status).toBe('ok')
    expect(flight.together).toContain('permissions+record')
    expect(flight.together).toContain('download+record')
    expect(flight.most).toBeLessThanOrEqual(4)

    const single = await suite.folder()
    expect((await pull({dir: single, client: suite.client(), rootTopicId: root, concurrency: 1})).status).toBe('ok')
    const files = (dir: string) =>
      snapshot(dir).then((all) =>
        Object.fromEntries(Object.entries(all).filter(([name]) => !name.startsWith('.kbsync')))
      )
    const written = await files(pooled)
    expect(Object.keys(written).filter((name) => name.includes('_assets/'))).toHaveLength(15)
    expect(written).toEqual(await files(single))
  })

  it('a dry run downloads nothing', async () => {
    const flight: Flight = {together: new Set(), most: 0}
    const dir = await suite.folder()
    const result = await pull({dir, client: watched(suite.client(), 0, flight), rootTopicId: root, dryRun: true})
    expect(result.plan.summary.create).toBe(18)
    expect([...flight.together].some((pair) => pair.includes('download'))).toBe(false)
    expect(Object.keys(await snapshot(dir))).toEqual([])
  })
})

/**
 * Crash safety: the push runs as a child process against a server that
 * persists to a file and answers slowly, and is killed with SIGKILL at
 * seeded random moments. Running it again must always end with the remote
 * equal to the folder and no duplicates.
 */
import {mkdtemp, rename, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'
import {planPush, provisionalBody} from '../../src/sync/index.js'
import {scanFolder} from '../../src/local/index.js'
import {cli, copyFixture, edit, flatten, spawnCli} from './push-helpers.js'

type Server = Awaited<ReturnType<typeof startServer>>

/** A small seeded generator (mulberry32), so a failing trial can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

let server: Server
let client: KbClient
let env: NodeJS.ProcessEnv
let dataDir: string
const folders: string[] = []

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'kbsync-kill-data-'))
  server = await startServer({port: 0, dataPath: path.join(dataDir, 'kb.json'), latencyMs: 15})
  env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: server.token}
  client = KbClient.fromEnv(env)
})

afterAll(async () => {
  await client?.close()
  await server?.close()
  for (const dir of [...folders, dataDir]) if (dir) await rm(dir, {recursive: true, force: true})
})

/**
 * Runs the push as a child and kills it with SIGKILL once the server has
 * answered `requests` of its requests plus `extraMs` (so the kill lands in
 * the middle of the run however slow the child is to start), or lets it
 * finish when it needs fewer. Resolves when the child is gone.
 */
function pushKilledAt(
  dir: string,
  root: string,
  requests: number,
  extraMs: number
): Promise<{killed: boolean; requests: number}> {
  const base = server.requestLog().length
  return new Promise((resolve) => {
    const child = spawnCli(['push', dir, '--root-topic', root], env)
    let timer: NodeJS.Timeout | undefined
    const poll = setInterval(() => {
      if (timer === undefined && server.requestLog().length - base >= requests) {
        timer = setTimeout(() => child.kill('SIGKILL'), extraMs)
      }
    }, 2)
    child.on('exit', (_code, signal) => {
      clearInterval(poll)
      clearTimeout(timer)
      resolve({killed: signal === 'SIGKILL', requests: server.requestLog().length - base})
    })
  })
}

/** The remote under `root` equals the folder: same items, no duplicates, final bodies, nothing left to do. */
async function expectInStep(dir: string, root: string): Promise<void> {
  const scan = await scanFolder(dir)
  const local = Object.values(scan.byPath).filter((node) => node.path !== '')
  const remote = flatten(await client.getTree(root))
  expect(remote).toHaveLength(local.length)
  const siblings = new Set(remote.map((e) => `${e.parentId} ${e.titlePath}`))
  expect(siblings.size).toBe(remote.length)
  for (const entry of remote.filter((e) => e.type === 'article')) {
    expect((await client.getItem(entry.id)).body).not.toContain(provisionalBody)
  }
  const plan = await planPush({dir, client, rootTopicId: root})
  expect(plan.ops.map((op) => `${op.op} ${op.path}`)).toEqual([])
  expect(plan.orphans).toEqual([])
}

describe('kill -9 at random moments, then push again', () => {
  it('always ends in step, without duplicates (20 seeded trials)', async () => {
    const next = random(20261123)
    // Calibrate: how many requests a full first push makes.
    const calibration = await copyFixture('fixtures/trees/basic')
    folders.push(calibration)
    const calibrationRoot = (await client.createItem({type: 'topic', title: 'Calibration', parent_topic_id: null})).id
    const full = (await pushKilledAt(calibration, calibrationRoot, Number.POSITIVE_INFINITY, 0)).requests
    expect(full).toBeGreaterThan(10)

    let dir = ''
    let root = ''
    let killed = 0
    for (let trial = 0; trial < 20; trial++) {
      if (trial % 2 === 0) {
        dir = await copyFixture('fixtures/trees/basic')
        folders.push(dir)
        root = (await client.createItem({type: 'topic', title: `Trial ${trial}`, parent_topic_id: null})).id
      } else {
        // Change the pushed folder: an edit, a move, a new file with a link and an image.
        await edit(path.join(dir, 'faq.md'), 'support desk', `support desk (trial ${trial})`)
        await rename(path.join(dir, 'guides', 'advanced', 'tuning.md'), path.join(dir, 'guides', 'tuning.md'))
        await edit(path.join(dir, 'guides', 'tuning.md'), '(../install.md)', '(install.md)')
        await edit(path.join(dir, 'guides', 'tuning.md'), '(../_index.md)', '(_index.md)')
        await edit(path.join(dir, 'guides', 'tuning.md'), '(../../img/logo.png)', '(../img/logo.png)')
        await edit(path.join(dir, 'guides', 'install.md'), '(advanced/tuning.md)', '(tuning.md)')
        await writeFile(
          path.join(dir, 'guides', 'advanced', 'limits.md'),
          `# Limits\n\nSee [Tuning](../tuning.md).\n\n![Diagram](../img/diagram.png)\n`
        )
      }
      const at = 1 + Math.floor(next() * full)
      const extra = Math.floor(next() * 15)
      const outcome = await pushKilledAt(dir, root, at, extra)
      if (outcome.killed) killed++
      const again = await cli(['push', dir, '--root-topic', root], env)
      expect(again.code, `trial ${trial} (killed after ${at} requests + ${extra} ms): ${again.err}`).toBe(0)
      await expectInStep(dir, root)
    }
    // The kills must really have landed in the middle of runs for this test to mean anything.
    expect(killed).toBeGreaterThanOrEqual(10)
  }, 300_000)
})

/**
 * Concurrent writers converge: two clones of one repository (two folders
 * with the same content, each with its own `.kbsync/` state) push the same
 * new folder of pages at once, through two real CLI processes, to one local
 * server. Whatever the timing (the server's latency and the second push's
 * start offset vary), exactly one copy of each topic and article is left,
 * and a third push (in-process) writes nothing. Before `converge.ts`, every trial left
 * a second copy of the new topic and of its articles that nothing removed.
 */
import {cp, mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'
import {writeFiles} from '../temp-folders.js'
import {bodyOf, cli, flatten} from '../e2e/push-helpers.js'
import {runCli} from './helpers.js'

type Server = Awaited<ReturnType<typeof startServer>>

let server: Server
let client: KbClient
let env: NodeJS.ProcessEnv
const folders: string[] = []

beforeAll(async () => {
  server = await startServer({port: 0})
  env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: server.token}
  client = KbClient.fromEnv(env)
})

afterAll(async () => {
  await client?.close()
  await server?.close()
  for (const dir of folders) await rm(dir, {recursive: true, force: true})
})

/** The same new folder: its topic (index.md) and 10 pages, linking to each other. */
function newPages(): Record<string, string> {
  const files: Record<string, string> = {'guide/index.md': '# Guide\n\nStart with [page 1](page-1.md).\n'}
  for (let i = 1; i <= 10; i++) {
    const next = i < 10 ? ` Then [page ${i + 1}](page-${i + 1}.md).` : ' Back to [the start](../intro.md).'
    files[`guide/page-${i}.md`] = `# Page ${i}\n\nText of page ${i}.${next}\n`
  }
  return files
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Two clones of a repository under a fresh root topic: an intro page already
 * pushed (in-process, which is quicker; the clone copies the `.kbsync/` state
 * with it), then the same new folder added in each.
 */
async function twoClones(trial: number): Promise<{a: string; b: string; root: string}> {
  const root = (await client.createItem({type: 'topic', title: `Trial ${trial}`, parent_topic_id: null})).id
  const a = await mkdtemp(path.join(tmpdir(), 'kbsync-clone-a-'))
  const b = await mkdtemp(path.join(tmpdir(), 'kbsync-clone-b-'))
  folders.push(a, b)
  await writeFiles(a, {'intro.md': '# Intro\n\nThe first page.\n'})
  const first = await cli(['push', a, '--root-topic', root], env)
  expect(first.code, first.err).toBe(0)
  await cp(a, b, {recursive: true})
  await writeFiles(a, newPages())
  await writeFiles(b, newPages())
  return {a, b, root}
}

/** Each title once per parent: the new topic, its 10 articles and the intro under the root. */
async function expectOneCopyEach(root: string, label: string): Promise<void> {
  const remote = flatten(await client.getTree(root))
  const paths = remote.map((entry) => entry.titlePath).sort()
  expect(new Set(paths).size, `${label}: ${paths.join(', ')}`).toBe(paths.length)
  expect(remote, label).toHaveLength(12)
}

describe('two pushes of the same new pages at once', () => {
  it('leave one copy of each page, and a third push writes nothing (10 timings)', async () => {
    for (let trial = 0; trial < 10; trial++) {
      const {a, b, root} = await twoClones(trial)
      const latencyMs = [0, 5, 20, 40, 10][trial % 5]!
      const offsetMs = [0, 15, 60, 3, 120, 30, 0, 200, 8, 90][trial]!
      server.setFaults({failRate: 0, latencyMs})
      const label = `trial ${trial} (latency ${latencyMs} ms, offset ${offsetMs} ms)`
      const one = runCli(['push', a, '--root-topic', root], env)
      await sleep(offsetMs)
      const two = runCli(['push', b, '--root-topic', root], env)
      const [first, second] = await Promise.all([one, two])
      server.setFaults({failRate: 0, latencyMs: 0})
      await expectOneCopyEach(root, label)
      expect(first.code, `${label}: ${first.err}`).toBe(0)
      expect(second.code, `${label}: ${second.err}`).toBe(0)
      // The third push, from either clone (alternately): nothing to write.
      const before = server.counts().writes!
      const third = await cli(['push', trial % 2 === 0 ? a : b, '--root-topic', root], env)
      expect(third.code, `${label}: ${third.err}`).toBe(0)
      expect(server.counts().writes! - before, `${label}: ${third.out}`).toBe(0)
      await expectOneCopyEach(root, label)
    }
  }, 180_000)
})

describe('twins left behind (a run killed between its create and its check, or an older release)', () => {
  it('plan names each twin and the tracked item; push --remove-twins deletes them within the guards', async () => {
    const root = (await client.createItem({type: 'topic', title: 'Twins', parent_topic_id: null})).id
    const outside = (await client.createItem({type: 'topic', title: 'Outside', parent_topic_id: null})).id
    const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-twins-'))
    folders.push(dir)
    await writeFiles(dir, {'intro.md': '# Intro\n\nThe first page.\n', ...newPages()})
    expect((await cli(['push', dir, '--root-topic', root], env)).code).toBe(0)
    const tracked = new Map(flatten(await client.getTree(root)).map((entry) => [entry.titlePath, entry.id]))
    const copy = async (id: string, parent: string | null, body?: string) => {
      const item = await client.getItem(id)
      const text = body ?? bodyOf(item)
      return (await client.createItem({type: item.type, title: item.title, parent_topic_id: parent, body: text})).id
    }
    // What two pushes at once left: the new topic twice, with two of its articles; the intro twice.
    const guideTwin = await copy(tracked.get('Guide')!, root)
    const pageTwins = [
      await copy(tracked.get('Guide / Page 1')!, guideTwin),
      await copy(tracked.get('Guide / Page 2')!, guideTwin)
    ]
    const introTwin = await copy(tracked.get('Intro')!, root)
    // Not twins to delete: a namesake someone wrote (another body), one outside the root.
    const edited = await copy(tracked.get('Intro')!, root, 'Another text, written by hand.\n')
    const elsewhere = await copy(tracked.get('Intro')!, outside)

    const plan = await cli(['plan', dir, '--root-topic', root, '--verbose'], env)
    expect(plan.code, plan.err).toBe(0)
    const said = plan.out + plan.err
    for (const [twin, of] of [
      [guideTwin, tracked.get('Guide')!],
      [pageTwins[0]!, tracked.get('Guide / Page 1')!],
      [introTwin, tracked.get('Intro')!]
    ])
      expect(said).toMatch(new RegExp(`${twin} looks like a twin of ${of}`))
    expect(said).not.toContain(elsewhere)

    // More deletions than allowed: nothing is deleted without --yes.
    const refused = await cli(['push', dir, '--root-topic', root, '--remove-twins', '--max-deletions', '2'], env)
    expect(refused.code).toBe(2)
    expect(flatten(await client.getTree(root))).toHaveLength(12 + 5)

    const removed = await cli(['push', dir, '--root-topic', root, '--remove-twins', '--yes'], env)
    expect(removed.code, removed.err).toBe(0)
    const left = flatten(await client.getTree(root)).map((entry) => entry.id)
    for (const id of [guideTwin, ...pageTwins, introTwin]) expect(left).not.toContain(id)
    expect(left).toContain(edited)
    expect(left).toHaveLength(13)
    for (const id of tracked.values()) expect(left).toContain(id)
    expect((await client.getTree(outside)).map((node) => node.id)).toEqual([elsewhere])
  }, 60_000)
})

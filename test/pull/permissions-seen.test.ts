/**
 * A pull reads an item's permissions only when its `updated_at` moved past
 * the one kbsync last saw them at (issue 19: a no-op pull is one request),
 * and still finds a permissions change made on the platform whatever push
 * ran in between (issue 18). Counted in the local server's request log.
 */
import {readFile, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {serverSuite} from './server-suite.js'
import type {KbClient} from '../../src/api/index.js'
import {push} from '../../src/sync/index.js'
import {pull} from '../../src/sync/pull/index.js'

const suite = serverSuite('perms-seen')
let client: KbClient
beforeAll(() => void (client = suite.client()))

/** The requests `run` sends, as `METHOD path` (no query). */
async function requestsOf(run: () => Promise<unknown>): Promise<string[]> {
  const from = suite.server().requestLog().length
  await run()
  return suite
    .server()
    .requestLog()
    .slice(from)
    .map((entry) => `${entry.method} ${entry.path.replace(/\?.*$/, '')}`)
}

const permissionReads = (requests: string[]) => requests.filter((request) => /permissions/.test(request))

/** A root topic holding a topic with two articles, one with readers of its own, pulled into a new folder. */
async function pulledTree(title: string): Promise<{root: string; article: string; dir: string}> {
  const root = (await client.createItem({type: 'topic', title, parent_topic_id: null})).id
  const topic = (await client.createItem({type: 'topic', title: 'Team', parent_topic_id: root, body: 'Team pages.'})).id
  const article = (await client.createItem({type: 'article', title: 'Secret', parent_topic_id: topic, body: 'Text.'}))
    .id
  await client.createItem({type: 'article', title: 'Open', parent_topic_id: topic, body: 'For all.'})
  await client.setPermissions(article, {readers: [1001], editors: [1001]})
  const dir = await suite.folder()
  expect((await pull({dir, client, rootTopicId: root})).status).toBe('ok')
  return {root, article, dir}
}

/** Edits the body of the pulled article `Team/<name>.md` in the folder. */
async function editLocally(dir: string, name: string, from: string, to: string): Promise<void> {
  const file = path.join(dir, 'Team', `${name}.md`)
  await writeFile(file, (await readFile(file, 'utf8')).replace(from, to))
}

describe('pull reads permissions only where updated_at moved past what kbsync saw', () => {
  it('a pull after a push of local edits (nothing changed on the platform) reads no permissions: one request', async () => {
    const {root, dir} = await pulledTree('Seen after push')
    await editLocally(dir, 'Secret', 'Text.', 'Text edited locally.')
    await editLocally(dir, 'Open', 'For all.', 'For all, edited.')
    const pushing = await requestsOf(async () =>
      expect((await push({dir, client, rootTopicId: root})).status).toBe('ok')
    )
    expect(pushing.filter((request) => request.startsWith('PUT'))).toHaveLength(2)

    const requests = await requestsOf(async () =>
      expect((await pull({dir, client, rootTopicId: root})).written).toEqual([])
    )
    expect(permissionReads(requests)).toEqual([])
    expect(requests).toHaveLength(1)
  })

  it('a push of a local edit after a permissions change on the platform does not hide it: the pull writes it', async () => {
    const {root, article, dir} = await pulledTree('Changed then pushed')
    await client.setPermissions(article, {readers: [1002], editors: [1002]})
    await editLocally(dir, 'Secret', 'Text.', 'Text edited locally.')
    const pushed = await push({dir, client, rootTopicId: root})
    expect(pushed.status).toBe('ok')
    expect((await client.getItem(article)).body).toContain('edited locally')

    const requests = await requestsOf(async () =>
      expect((await pull({dir, client, rootTopicId: root})).status).toBe('ok')
    )
    // Only the article moved (twice: the change, then the push): only its permissions are read.
    expect(permissionReads(requests)).toHaveLength(1)
    expect(permissionReads(requests)[0]).toContain(article)
    const secret = await readFile(path.join(dir, 'Team', 'Secret.md'), 'utf8')
    expect(secret).toContain('readers: [1002]')
    expect(secret).toContain('edited locally')
    // Seen now: the next pull is one request again.
    expect(await requestsOf(() => pull({dir, client, rootTopicId: root}))).toHaveLength(1)
  })

  it('a state file written before permissionsSeenAt existed: the next pull reads every permission once, finds a change a push hid, then reads none', async () => {
    const {root, article, dir} = await pulledTree('Older state')
    const stateFile = path.join(dir, '.kbsync', 'state.json')
    const state = JSON.parse(await readFile(stateFile, 'utf8')) as {
      items: Record<string, {permissionsSeenAt?: string}>
      journal?: string
    }
    expect(Object.values(state.items).some((entry) => entry.permissionsSeenAt !== undefined)).toBe(true)
    for (const entry of Object.values(state.items)) delete entry.permissionsSeenAt
    delete state.journal
    await writeFile(stateFile, JSON.stringify(state, null, 2))
    await rm(path.join(dir, '.kbsync', 'state.journal'), {force: true})
    const items = Object.keys(state.items).length

    // The issue 18 sequence with the older state: a change on the platform, then a push that records the new updated_at.
    await client.setPermissions(article, {readers: [1003], editors: [1003]})
    expect((await push({dir, client, rootTopicId: root})).status).toBe('ok')
    const requests = await requestsOf(async () =>
      expect((await pull({dir, client, rootTopicId: root})).status).toBe('ok')
    )
    expect(permissionReads(requests)).toHaveLength(items)
    expect(await readFile(path.join(dir, 'Team', 'Secret.md'), 'utf8')).toContain('readers: [1003]')

    expect(await requestsOf(() => pull({dir, client, rootTopicId: root}))).toHaveLength(1)
  })
})

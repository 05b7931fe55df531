/**
 * In a folder that manages permissions, a pull reads every item's
 * permissions (issue 31: the API contract does not promise that a change
 * moves `updated_at`; the rule of issue 19, which read them only where it
 * moved, missed a change on a server that does not move it), and so finds a
 * permissions change made on the platform whatever push ran in between
 * (issue 18). Counted in the local server's request log.
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

describe('pull reads every permission in a folder that manages them', () => {
  it('a pull after a push of local edits (nothing changed on the platform) reads the permissions and writes nothing', async () => {
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
    const items = Object.keys(JSON.parse(await readFile(path.join(dir, '.kbsync', 'state.json'), 'utf8')).items).length
    expect(permissionReads(requests)).toHaveLength(items)
    expect(requests).toHaveLength(1 + items)
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
    expect(permissionReads(requests).filter((request) => request.includes(article))).toHaveLength(1)
    const secret = await readFile(path.join(dir, 'Team', 'Secret.md'), 'utf8')
    expect(secret).toContain('readers: [1002]')
    expect(secret).toContain('edited locally')
    // Seen now: the next pull writes nothing.
    expect((await pull({dir, client, rootTopicId: root})).written).toEqual([])
  })

  it('a state file written before permissionsSeenAt existed: the next pull finds a change a push hid', async () => {
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
    expect((await pull({dir, client, rootTopicId: root})).written).toEqual([])
  })
})

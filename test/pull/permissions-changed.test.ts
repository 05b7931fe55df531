/**
 * A permissions change made on the platform reaches the folder at the next
 * pull whatever ran in between: a push in between records the item's new
 * `updated_at` (issue 18) but not that its permissions were seen there
 * (`permissionsSeenAt`), so pull reads and compares them.
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {serverSuite} from './server-suite.js'
import type {KbClient} from '../../src/api/index.js'
import {planPush, push} from '../../src/sync/index.js'
import {pull} from '../../src/sync/pull/index.js'

const suite = serverSuite('perms-changed')
let client: KbClient
beforeAll(() => void (client = suite.client()))

describe('pull after a permissions change on the platform', () => {
  it('writes the new readers and editors of an article and a topic although a push ran in between', async () => {
    const root = (await client.createItem({type: 'topic', title: 'Perms changed', parent_topic_id: null})).id
    const topic = (await client.createItem({type: 'topic', title: 'Team', parent_topic_id: root, body: 'Team pages.'}))
      .id
    const article = (await client.createItem({type: 'article', title: 'Secret', parent_topic_id: topic, body: 'Text.'}))
      .id
    await client.setPermissions(article, {readers: [1001], editors: [1001]})
    const dir = await suite.folder()
    expect((await pull({dir, client, rootTopicId: root})).status).toBe('ok')
    expect(await readFile(path.join(dir, 'Team', 'Secret.md'), 'utf8')).toContain('readers: [1001]')

    // On the platform: new people, and the topic stops inheriting.
    await client.setPermissions(article, {readers: [1002, 1003], editors: [1002]})
    await client.setPermissions(topic, {inherit: false, readers: [1004], editors: [1004]})
    const pushed = await push({dir, client, rootTopicId: root})
    expect(pushed.status).toBe('ok')

    const result = await pull({dir, client, rootTopicId: root})
    expect(result.status).toBe('ok')
    const secret = await readFile(path.join(dir, 'Team', 'Secret.md'), 'utf8')
    expect(secret).toContain('readers: [1002, 1003]')
    expect(secret).toContain('editors: [1002]')
    const team = await readFile(path.join(dir, 'Team', '_permissions.yml'), 'utf8')
    expect(team).toMatch(/inherit: false/)
    expect(team).toContain('1004')
    // And now the folder says what the platform holds: nothing to push.
    const plan = await planPush({dir, client, rootTopicId: root})
    expect(plan.ops.map((op) => `${op.op} ${op.path}`)).toEqual([])
  })
})

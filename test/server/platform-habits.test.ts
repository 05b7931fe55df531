/**
 * The opt-in platform habits of the local server, end to end through HTTP:
 * a login of several organisations without `person_id` (500) or with a
 * wrong one (401), and a body with a fence inside a fenced block (500).
 * Dropped connections: `burst-drops.test.ts`.
 */
import {describe, expect, it} from 'vitest'
import {nestedFenceLine} from '../../plugins/code-fence.js'
import {serversPerTest} from './helpers.js'

const start = serversPerTest({seed: 3})

/** POSTs a login to `url`; resolves to the status and error code (or token). */
async function login(url: string, fields: Record<string, unknown>): Promise<[number, string]> {
  const answer = await fetch(url, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify({login: 'local', security_key: 'local-key', ...fields})
  })
  const json = (await answer.json()) as {error_code?: string; access_token?: string}
  return [answer.status, json.error_code ?? (json.access_token ? 'token' : '')]
}

/** Code that shows a Markdown fence, in a four-backtick block: what the platform fails on. */
const fenceInFence = 'Before.\n\n````markdown\n```js\nlet x = 1\n```\n````\n\nAfter.'

describe('platform habit: a login of several organisations', () => {
  it('answers 500 server_error without person_id, 401 to a wrong one, a token to a right one, on both login paths', async () => {
    const {server} = await start({platformHabits: {loginPersonIds: [1, 7]}})
    for (const url of [`${server.apiUrl}/auth`, `${server.filesUrl}/api/v4/auth`]) {
      expect(await login(url, {})).toEqual([500, 'server_error'])
      expect(await login(url, {person_id: null})).toEqual([500, 'server_error'])
      expect(await login(url, {person_id: 9})).toEqual([401, 'invalid_credentials'])
      expect(await login(url, {person_id: 7})).toEqual([200, 'token'])
      expect(await login(url, {person_id: '1'})).toEqual([200, 'token'])
      // Wrong credentials stay a 401, person_id or not.
      expect(await login(url, {security_key: 'wrong'})).toEqual([401, 'invalid_credentials'])
    }
  })

  it('needs no person_id for a login of one organisation, but refuses another person; without the habit ignores it', async () => {
    const {server} = await start({platformHabits: {loginPersonIds: [5]}})
    expect(await login(`${server.apiUrl}/auth`, {})).toEqual([200, 'token'])
    expect(await login(`${server.apiUrl}/auth`, {person_id: 5})).toEqual([200, 'token'])
    expect(await login(`${server.apiUrl}/auth`, {person_id: 6})).toEqual([401, 'invalid_credentials'])
    const plain = (await start()).server
    expect(await login(`${plain.apiUrl}/auth`, {person_id: 12345})).toEqual([200, 'token'])
  })
})

describe('platform habit: a fence inside a fenced code block', () => {
  it('answers 500 to an article or topic write with such a body and stores nothing', async () => {
    const {server, call} = await start({platformHabits: true})
    const created = await call('POST', '/knowledgebase', {title: 'Fences', body: fenceInFence})
    expect([created.status, created.json.error_code]).toEqual([500, 'server_error'])
    expect(server.items()).toEqual([])

    const article = (await call('POST', '/knowledgebase', {title: 'Fences', body: '```js\nlet x = 1\n```'})).json
    const topic = (await call('POST', '/knowledgebase', {type: 'topic', title: 'Topic', body: 'About.'})).json
    for (const item of [article, topic]) {
      const updated = await call('PUT', `/knowledgebase/${item.id}`, {title: 'Renamed', body: fenceInFence})
      expect([updated.status, updated.json.error_code]).toEqual([500, 'server_error'])
    }
    expect(server.items().map((i) => [i.title, i.version])).toEqual([
      ['Fences', 1],
      ['Topic', 1]
    ])
    // A title alone, or a body whose fences do not nest, is written.
    expect((await call('PUT', `/knowledgebase/${topic.id}`, {title: 'Renamed'})).status).toBe(200)
    expect((await call('PUT', `/knowledgebase/${article.id}`, {body: '~~~\ncode\n~~~\n\n```\nmore\n```'})).status).toBe(
      200
    )
    // Nor does a fence line the dialect guards with a zero-width space, as kbsync writes code that shows a fence.
    expect(
      (await call('PUT', `/knowledgebase/${article.id}`, {body: '```markdown\n\u200B```js\nlet x = 1\n\u200B```\n```'}))
        .status
    ).toBe(200)
    // Without the habit such a body is stored.
    expect((await (await start()).call('POST', '/knowledgebase', {title: 'Fences', body: fenceInFence})).status).toBe(
      200
    )
  })

  it('finds a three-backtick line inside any fenced block: longer backtick fences, tildes, info strings, quotes, lists', () => {
    const line = (body: string) => nestedFenceLine(body)?.line
    expect(line(fenceInFence)).toBe(4)
    expect(line('~~~\n```\n~~~')).toBe(2)
    // A three-backtick line with an info string cannot close a block: it is inside it.
    expect(line('```\n```python\nx\n```')).toBe(2)
    expect(line('> ````\n> ```\n> ````')).toBe(2)
    expect(line('- ````md\n  ```\n  ````')).toBe(2)
    expect(nestedFenceLine('```\r\ncode\r\n```\r\n\r\n```\r\nmore\r\n```')).toBeUndefined()
    expect(nestedFenceLine('````\ncode\n`````\n```\nafter\n```')).toBeUndefined()
    // Inline code with backticks opens no block.
    expect(nestedFenceLine('```a` b```\n```\nx\n```')).toBeUndefined()
    expect(nestedFenceLine('No code at all.')).toBeUndefined()
  })
})

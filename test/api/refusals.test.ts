/**
 * Issue 18, the client: failures the real platform answers that no retry
 * mends are explained within one retry, naming variables (never values)
 * and the likely cause, instead of five blind retries.
 */
import {afterEach, describe, expect, it} from 'vitest'
import {ApiError, AuthError, KbClient} from '../../src/api/index.js'
import {nestedFenceLine} from '../../plugins/code-fence.js'
import {item, json, tinyServer, type Handler, type Tiny} from './tiny-server.js'

const LOGIN = 'bot@example.com'
const KEY = 'key-SECRET-0123456789'
let servers: Tiny[] = []
const clients: KbClient[] = []

async function setup(
  handler: Handler,
  extra: ConstructorParameters<typeof KbClient>[0] = {}
): Promise<{server: Tiny; client: KbClient}> {
  const server = await tinyServer(handler)
  servers.push(server)
  const client = new KbClient({apiUrl: `${server.url}/v4`, retryBaseMs: 5, timeoutMs: 2000, ...extra})
  clients.push(client)
  return {server, client}
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
  await Promise.all(servers.map((s) => s.close()))
  servers = []
})

const authCalls = (server: Tiny) => server.seen.filter((s) => s.url.endsWith('/auth')).length

describe('logging in', () => {
  it('a 500 without person_id says to set KBSYNC_PERSON_ID after one retry', async () => {
    const {server, client} = await setup(
      (req, res) => json(res, 500, {error_code: 'server_error', error: 'Internal error'}),
      {login: LOGIN, securityKey: KEY}
    )
    const error = await client.getItem('A1').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AuthError)
    expect((error as Error).message).toMatch(
      /500 server_error.*again after a retry.*several organisations.*set KBSYNC_PERSON_ID/
    )
    expect(authCalls(server)).toBe(2)
    expect(JSON.parse(server.seen[0]!.body.toString())).not.toHaveProperty('person_id')
    expect((error as Error).message).not.toContain(KEY)
  })

  it('a 500 with person_id sent does not blame it, still after one retry', async () => {
    const {server, client} = await setup((req, res) => json(res, 500, {error_code: 'server_error'}), {
      login: LOGIN,
      securityKey: KEY,
      personId: 7
    })
    const error = (await client.getItem('A1').catch((e: unknown) => e)) as Error
    expect(error.message).toMatch(/KBSYNC_PERSON_ID sent.*try again later/)
    expect(error.message).not.toMatch(/set KBSYNC_PERSON_ID/)
    expect(authCalls(server)).toBe(2)
  })

  it('a 401 names the variables that were sent, never their values, and is not retried', async () => {
    const {server, client} = await setup((req, res) => json(res, 401, {error_code: 'invalid_credentials'}), {
      login: LOGIN,
      securityKey: KEY,
      personId: 12345
    })
    const error = (await client.getItem('A1').catch((e: unknown) => e)) as Error
    expect(error).toBeInstanceOf(AuthError)
    expect(error.message).toMatch(
      /refused \(401 invalid_credentials\): KBSYNC_LOGIN, KBSYNC_SECURITY_KEY and KBSYNC_PERSON_ID were refused/
    )
    expect(error.message).toMatch(/KBSYNC_PERSON_ID the login does not belong to/)
    for (const value of [LOGIN, KEY, '12345']) expect(error.message).not.toContain(value)
    expect(authCalls(server)).toBe(1)
  })

  it('a refused token says where it came from', async () => {
    const {client} = await setup((req, res) => json(res, 401, {error_code: 'invalid_token'}), {
      token: 'tok-SECRET-0123456789'
    })
    const error = (await client.getItem('A1').catch((e: unknown) => e)) as Error
    expect(error).toBeInstanceOf(AuthError)
    expect(error.message).toMatch(/401 invalid_token: the access token from KBSYNC_TOKEN \(or tokenFile\) was refused/)
    expect(error.message).not.toContain('tok-SECRET')
  })
})

describe('a write answered 500', () => {
  const nested = 'Before\n\n````markdown\nExample:\n\n```sh\nnpm i\n```\n````\n'
  const refuse: Handler = (req, res) => {
    if (req.method === 'POST' || req.method === 'PUT')
      return json(res, 500, {error_code: 'server_error', error: 'Internal error'})
    if (req.url.includes('/knowledgebase/A1')) return json(res, 200, item('A1', {body: 'old'}))
    json(res, 200, {items: [], has_more: false})
  }

  it('is retried once, then reported with the line of the nested fence', async () => {
    const {server, client} = await setup(refuse, {token: 'tok-SECRET-0123456789'})
    const error = (await client
      .createItem({type: 'article', title: 'Fences', body: nested})
      .catch((e: unknown) => e)) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error.retryable).toBe(false)
    expect(error.message).toMatch(
      /POST \/knowledgebase failed: 500 server_error.*again after a retry.*saved nothing.*line 6 of the body sent starts a fence/
    )
    expect(server.seen.filter((s) => s.method === 'POST')).toHaveLength(2)
  })

  it('an update too; without a known cause the message says so', async () => {
    const {server, client} = await setup(refuse, {token: 'tok-SECRET-0123456789'})
    const error = (await client.updateItem('A1', {body: 'plain text'}).catch((e: unknown) => e)) as ApiError
    expect(error.message).toMatch(/PUT \/knowledgebase\/A1 failed: 500.*Nothing known to cause this/)
    expect(server.seen.filter((s) => s.method === 'PUT')).toHaveLength(2)
  })

  it('writeServerErrorRetries sets how many', async () => {
    const {server, client} = await setup(refuse, {token: 'tok-SECRET-0123456789', writeServerErrorRetries: 3})
    await expect(client.createItem({type: 'article', title: 'X', body: 'x'})).rejects.toThrow(/500/)
    expect(server.seen.filter((s) => s.method === 'POST')).toHaveLength(4)
  })
})

describe('nestedFenceLine', () => {
  it('finds a fence line inside a fenced block, in quotes and lists too, guarded ones only when asked, and nothing in closed blocks', () => {
    expect(nestedFenceLine('````\n```js\n````')).toEqual({line: 2, guarded: false})
    expect(nestedFenceLine('```\n```js\nx\n```')?.line).toBe(2)
    expect(nestedFenceLine('> ~~~\n>   ```\n> ~~~')?.line).toBe(2)
    expect(nestedFenceLine('- ````md\n  ```\n  ````')?.line).toBe(2)
    expect(nestedFenceLine('-   ```md\n    a\n    ```\n\n```\nb\n```')).toBeUndefined()
    expect(nestedFenceLine('```\n\u200B```js\n\u200B```\n```')).toBeUndefined()
    expect(nestedFenceLine('```\n\u200B```js\n\u200B```\n```', true)).toEqual({line: 2, guarded: true})
    expect(nestedFenceLine('no code ```here```')).toBeUndefined()
  })
})

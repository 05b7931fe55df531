/**
 * Retry, wait, re-login and duplicate-safety mechanics against tiny scripted
 * servers (the real local server is driven by contract.test.ts and faults.test.ts).
 */
import {afterEach, describe, expect, it} from 'vitest'
import {ApiError, AuthError, KbClient, NetworkError, type ClientEvent} from '../../src/api/index.js'
import {item, json, tinyServer, type Handler, type Tiny} from './tiny-server.js'

const TOKEN = 'tok-SECRET-0123456789'
let servers: Tiny[] = []
const clients: KbClient[] = []

async function setup(
  handler: Handler,
  extra: ConstructorParameters<typeof KbClient>[0] = {}
): Promise<{server: Tiny; client: KbClient; events: ClientEvent[]}> {
  const server = await tinyServer(handler)
  servers.push(server)
  const events: ClientEvent[] = []
  const client = new KbClient({
    apiUrl: `${server.url}/v4`,
    token: TOKEN,
    retryBaseMs: 5,
    timeoutMs: 2000,
    onEvent: (e) => events.push(e),
    ...extra
  })
  clients.push(client)
  return {server, client, events}
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
  await Promise.all(servers.map((s) => s.close()))
  servers = []
})

describe('retries', () => {
  it('retries a GET after 500s and a dropped connection, sending the bearer every time', async () => {
    const {server, client, events} = await setup((req, res, i) => {
      if (i === 0) return json(res, 500, {error_code: 'server_error', error: 'boom'})
      if (i === 1) return 'drop'
      json(res, 200, item('A1'))
    })
    expect((await client.getItem('A1')).id).toBe('A1')
    expect(server.seen).toHaveLength(3)
    expect(server.seen.every((s) => s.headers.authorization === `Bearer ${TOKEN}`)).toBe(true)
    expect(client.stats()).toMatchObject({requests: 3, retries: 2, byEndpoint: {'GET /knowledgebase/{id}': 3}})
    expect(events.filter((e) => e.type === 'retry').map((e) => e.attempt)).toEqual([1, 2])
  })

  it('does not retry 501 or 4xx, and gives up after `retries` attempts', async () => {
    const {server, client} = await setup(
      (req, res) => {
        if (req.url.includes('NI')) return json(res, 501, {error_code: 'not_implemented', error: 'no'})
        if (req.url.includes('NF')) return json(res, 404, {error_code: 'knowledge_base_not_found', error: 'gone'})
        json(res, 503, {error_code: 'server_error', error: 'down'})
      },
      {retries: 3}
    )
    await expect(client.getItem('NI')).rejects.toMatchObject({
      status: 501,
      errorCode: 'not_implemented',
      retryable: false
    })
    const notFound = await client.getItem('NF').catch((e: unknown) => e)
    expect(notFound).toBeInstanceOf(ApiError)
    expect(notFound).toMatchObject({
      status: 404,
      errorCode: 'knowledge_base_not_found',
      method: 'GET',
      path: '/knowledgebase/NF'
    })
    await expect(client.getItem('X')).rejects.toMatchObject({status: 503, retryable: true})
    expect(server.seen.filter((s) => s.url.endsWith('/X'))).toHaveLength(3)
  })

  it('times out a silent server and retries', async () => {
    const {server, client} = await setup(
      (req, res, i) => {
        if (i === 0) return // never answers
        json(res, 200, item('T'))
      },
      {timeoutMs: 150}
    )
    const started = Date.now()
    expect((await client.getItem('T')).id).toBe('T')
    expect(Date.now() - started).toBeGreaterThanOrEqual(140)
    expect(server.seen).toHaveLength(2)
  })

  it('reports a timeout as a NetworkError once attempts run out', async () => {
    const {client} = await setup(() => undefined, {timeoutMs: 80, retries: 2})
    const error = await client.getItem('T').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NetworkError)
    expect(error).toMatchObject({errorCode: 'timeout', retryable: true, method: 'GET'})
  })

  it('keeps at most `concurrency` requests in flight', async () => {
    const {server, client} = await setup(
      (req, res) => {
        setTimeout(() => json(res, 200, item('C')), 20)
      },
      {concurrency: 3}
    )
    await Promise.all(Array.from({length: 12}, () => client.getItem('C')))
    expect(server.maxInFlight()).toBeLessThanOrEqual(3)
    expect(server.maxInFlight()).toBeGreaterThan(1)
  })
})

describe('rate limits', () => {
  it('waits Retry-After on a 429, for a POST too, without looking the item up', async () => {
    const {server, client, events} = await setup((req, res, i) => {
      if (i === 0) return json(res, 429, {error_code: 'too_many_requests', error: 'slow down'}, {'retry-after': '1'})
      json(res, 200, item('N', {title: 'New'}))
    })
    const started = Date.now()
    expect((await client.createItem({type: 'article', title: 'New', body: 'b'})).id).toBe('N')
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
    expect(server.seen.map((s) => s.method)).toEqual(['POST', 'POST'])
    expect(events.find((e) => e.type === 'retry')).toMatchObject({status: 429, waitMs: 1000})
  })

  it('falls back to X-RateLimit-Reset, and fails clearly when the demanded wait is too long', async () => {
    const {server, client} = await setup(
      (req, res) => {
        json(
          res,
          429,
          {error_code: 'too_many_requests', error: 'slow down'},
          {'x-ratelimit-reset': '600', 'x-ratelimit-remaining': '0'}
        )
      },
      {maxRateLimitWaitMs: 2000}
    )
    const started = Date.now()
    const error = await client.getItem('A').catch((e: unknown) => e)
    expect(Date.now() - started).toBeLessThan(1000)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).message).toMatch(/wait 600 s.*maxRateLimitWaitMs/)
    expect(error).toMatchObject({status: 429, errorCode: 'too_many_requests'})
    expect(server.seen).toHaveLength(1)
  })

  it('waits out a rate-limit reset longer than the failure backoff cap', async () => {
    const {server, client} = await setup(
      (req, res, i) => {
        if (i === 0)
          return json(
            res,
            429,
            {error_code: 'too_many_requests', error: 'slow down'},
            {'x-ratelimit-reset': '1', 'x-ratelimit-remaining': '0'}
          )
        json(res, 200, item('A1'))
      },
      {maxRetryWaitMs: 100}
    )
    const started = Date.now()
    expect((await client.getItem('A1')).id).toBe('A1')
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
    expect(server.seen).toHaveLength(2)
  })

  it('slows down when X-RateLimit-Remaining runs low, spreading the rest until the reset', async () => {
    let remaining = 6
    const {server, client, events} = await setup(
      (req, res) => {
        remaining = Math.max(0, remaining - 1)
        json(res, 200, item('R'), {
          'x-ratelimit-limit': '100',
          'x-ratelimit-remaining': String(remaining),
          'x-ratelimit-reset': '1'
        })
      },
      {concurrency: 1}
    )
    const started = Date.now()
    for (let i = 0; i < 5; i++) await client.getItem('R')
    expect(events.some((e) => e.type === 'rate-limit-wait')).toBe(true)
    expect(client.stats().rateLimitWaits).toBeGreaterThan(0)
    // Five requests over a budget of five per second: spread over most of that second.
    expect(Date.now() - started).toBeGreaterThanOrEqual(500)
    expect(server.seen).toHaveLength(5)
  })
})

describe('duplicate-safe writes', () => {
  const created = '2099-01-01T00:00:00Z'

  it('a create whose connection dropped after the write is found under its parent, not sent again', async () => {
    const {server, client} = await setup((req, res) => {
      if (req.method === 'POST') return 'drop'
      if (req.url.includes('/structure')) {
        expect(req.url).toContain('parent_topic_id=P1')
        return json(res, 200, {
          parent_topic_id: 'P1',
          depth: 1,
          items: [
            {id: 'OLD', type: 'article', title: 'Guide', parent_topic_id: 'P1', created_at: '2020-01-01T00:00:00Z'},
            {id: 'NEW', type: 'article', title: 'Guide', parent_topic_id: 'P1', created_at: created},
            {id: 'TOP', type: 'topic', title: 'Guide', parent_topic_id: 'P1', created_at: created}
          ]
        })
      }
      json(res, 200, item('NEW', {title: 'Guide', parent_topic_id: 'P1', created_at: created}))
    })
    const result = await client.createItem({type: 'article', title: 'Guide', parent_topic_id: 'P1', body: 'b'})
    expect(result.id).toBe('NEW')
    expect(server.seen.filter((s) => s.method === 'POST')).toHaveLength(1)
  })

  it('a create that is absent after a 500 is sent again', async () => {
    let posts = 0
    const {server, client} = await setup((req, res) => {
      if (req.method === 'POST')
        return ++posts === 1
          ? json(res, 500, {error_code: 'server_error', error: 'x'})
          : json(res, 200, item('Z', {title: 'Fresh'}))
      json(res, 200, {parent_topic_id: null, depth: 1, items: []})
    })
    expect((await client.createItem({type: 'article', title: 'Fresh', body: 'b'})).id).toBe('Z')
    expect(server.seen.map((s) => `${s.method} ${s.url.split('?')[0]}`)).toEqual([
      'POST /v4/knowledgebase',
      'GET /v4/knowledgebase/structure',
      'POST /v4/knowledgebase'
    ])
  })

  it('an update applied before the connection dropped is not sent again', async () => {
    const {server, client} = await setup((req, res) => {
      if (req.method === 'PUT') return 'drop'
      json(res, 200, item('U', {title: 'T', body: '# T\n\nnew body'}))
    })
    expect((await client.updateItem('U', {body: 'new body\n'})).id).toBe('U')
    expect(server.seen.filter((s) => s.method === 'PUT')).toHaveLength(1)
    expect(JSON.parse(server.seen[0]!.body.toString())).toEqual({body: 'new body\n'})
  })

  it('a delete whose answer was lost counts as done when the item is gone', async () => {
    const {server, client} = await setup((req, res) => {
      if (req.method === 'DELETE') return 'drop'
      json(res, 404, {error_code: 'knowledge_base_not_found', error: 'no'})
    })
    expect(await client.deleteItem('D', {withChildren: true})).toBe(true)
    expect(server.seen[0]!.url).toBe('/v4/knowledgebase/D?delete_with_children=true')
    expect(server.seen.filter((s) => s.method === 'DELETE')).toHaveLength(1)
  })
})

describe('authentication', () => {
  it('logs in with login and security key, uses the returned URLs, and logs in again once on expired_token', async () => {
    let tokens = 0
    let api = ''
    const {server, client, events} = await setup(
      (req, res) => {
        if (req.url === '/v4/auth') {
          tokens++
          expect(JSON.parse(req.body.toString())).toEqual({login: 'bot', security_key: 'KEY-secret-987'})
          return json(res, 200, {access_token: `tok-${tokens}-xyz`, api_url: `${api}/other/v4/`, files_url: `${api}/`})
        }
        if (req.headers.authorization === 'Bearer tok-1-xyz')
          return json(res, 401, {error_code: 'expired_token', error: 'expired'})
        json(res, 200, item('A'))
      },
      {token: undefined, login: 'bot', securityKey: 'KEY-secret-987'}
    )
    api = server.url
    await Promise.all([client.getItem('A'), client.getItem('B'), client.getItem('C')])
    expect(tokens).toBe(2)
    expect(
      server.seen.filter((s) => s.url !== '/v4/auth').every((s) => s.url.startsWith('/other/v4/knowledgebase/'))
    ).toBe(true)
    expect(events.filter((e) => e.type === 'reauth').length).toBeGreaterThan(0)
    expect(JSON.stringify(events)).not.toMatch(/tok-|KEY-secret/)
  })

  it('with a ready token, an expired token fails clearly and is not retried', async () => {
    const {server, client} = await setup((req, res) =>
      json(res, 401, {error_code: 'revoked_token', error: `token ${TOKEN} revoked`})
    )
    const error = await client.getItem('A').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AuthError)
    expect((error as AuthError).message).toMatch(/KBSYNC_TOKEN/)
    expect(error).toMatchObject({status: 401, errorCode: 'revoked_token'})
    expect(server.seen).toHaveLength(1)
  })

  it('a rejected login says which variables to check, and never shows the key', async () => {
    const {client} = await setup(
      (req, res) => json(res, 401, {error_code: 'invalid_credentials', error: 'bad key KEY-secret-987'}),
      {
        token: undefined,
        login: 'bot',
        securityKey: 'KEY-secret-987'
      }
    )
    const error = (await client.getItem('A').catch((e: unknown) => e)) as AuthError
    expect(error).toBeInstanceOf(AuthError)
    expect(error.message).toMatch(/KBSYNC_SECURITY_KEY/)
    expect(`${error.stack} ${JSON.stringify(error)}`).not.toContain('KEY-secret-987')
  })
})

/**
 * No secret leaves the client: not in an error's message, stack, JSON or
 * inspection (including errors of the HTTP stack itself), not in events, not
 * in `--verbose` log lines.
 */
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import {inspect} from 'node:util'
import {afterEach, describe, expect, it} from 'vitest'
import {formatClientEvent, KbClient, type ClientEvent} from '../../src/api/index.js'
import {json, tinyServer, type Handler, type Tiny} from './tiny-server.js'

const TOKEN = 'tok-LEAKCHECK-a1b2c3d4e5'
const KEY = 'key-LEAKCHECK-f6g7h8i9'
let servers: Tiny[] = []
const clients: KbClient[] = []

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
  await Promise.all(servers.map((s) => s.close()))
  servers = []
})

/** Everything a user or a log could ever see of an error. */
function exposure(error: unknown): string {
  const e = error as Error & {cause?: unknown}
  return [
    String(e),
    e.message,
    e.stack,
    JSON.stringify(e),
    inspect(e, {depth: 10, showHidden: true}),
    JSON.stringify(e.cause ?? null)
  ].join('\n')
}

function expectClean(text: string): void {
  expect(text).not.toContain(TOKEN)
  expect(text).not.toContain(KEY)
  expect(text).not.toMatch(/Bearer\s+tok-/)
}

async function make(handler: Handler, login = false): Promise<{client: KbClient; events: ClientEvent[]}> {
  const server = await tinyServer(handler)
  servers.push(server)
  const events: ClientEvent[] = []
  const client = new KbClient({
    apiUrl: `${server.url}/v4`,
    ...(login ? {login: 'bot', securityKey: KEY} : {token: TOKEN}),
    retries: 2,
    retryBaseMs: 1,
    timeoutMs: 300,
    onEvent: (e) => events.push(e)
  })
  clients.push(client)
  return {client, events}
}

describe('secrets never leak', () => {
  it('through a server that echoes the Authorization header and the login body into its errors', async () => {
    const echo: Handler = (req, res) => {
      if (req.url === '/v4/auth') {
        return json(res, 200, {access_token: TOKEN, api_url: '', files_url: ''})
      }
      const status = req.url.includes('/500') ? 500 : req.url.includes('/401') ? 401 : 400
      json(res, status, {
        error_code: status === 401 ? 'invalid_token' : 'knowledge_base_invalid_request',
        error: `you sent ${req.headers.authorization} (${req.headers.authorization?.slice(7)})`
      })
    }
    const {client, events} = await make(echo, true)
    for (const id of ['400', '401', '500']) {
      const error = await client.getItem(id).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(Error)
      expectClean(exposure(error))
    }
    const lines = events.map(formatClientEvent).join('\n')
    expectClean(JSON.stringify(events) + lines)
    expect(lines).toMatch(/api: response GET \/knowledgebase\/500 \(attempt 2, 500 /)
  })

  it('through network errors of the HTTP stack (refused, dropped, timed out)', async () => {
    const refused = http.createServer()
    await new Promise<void>((r) => refused.listen(0, '127.0.0.1', r))
    const port = (refused.address() as AddressInfo).port
    await new Promise<void>((r) => refused.close(() => r()))
    const events: ClientEvent[] = []
    const client = new KbClient({
      apiUrl: `http://127.0.0.1:${port}/v4`,
      token: TOKEN,
      retries: 2,
      retryBaseMs: 1,
      onEvent: (e) => events.push(e)
    })
    clients.push(client)
    const errors: unknown[] = [await client.getItem('A').catch((e: unknown) => e)]
    const {client: dropping} = await make(() => 'drop')
    errors.push(await dropping.updateItem('A', {body: 'b'}).catch((e: unknown) => e))
    const {client: silent} = await make(() => undefined)
    errors.push(await silent.getItem('A').catch((e: unknown) => e))
    for (const error of errors) {
      expect(error).toMatchObject({name: 'NetworkError', retryable: true})
      expectClean(exposure(error))
    }
    expectClean(JSON.stringify(events) + events.map(formatClientEvent).join('\n'))
  })

  it('through a failed login', async () => {
    const {client} = await make(
      (req, res) =>
        json(res, 401, {
          error_code: 'invalid_credentials',
          error: `key ${JSON.parse(req.body.toString()).security_key} wrong`
        }),
      true
    )
    const error = await client.getItem('A').catch((e: unknown) => e)
    expect(error).toMatchObject({name: 'AuthError', status: 401})
    expectClean(exposure(error))
  })

  it('through the client object itself', async () => {
    const {client} = await make((req, res) => json(res, 200, {}))
    expectClean(JSON.stringify(client.stats()))
    expectClean(String(client))
  })
})

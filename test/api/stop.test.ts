/**
 * The client's `signal` (the run's stop): a request in flight is cut off at
 * once, a backoff or rate-limit wait ends, nothing is sent again, and every
 * call rejects with the signal's reason, never as a retryable drop.
 */
import {afterEach, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {item, json, tinyServer, type Handler, type Tiny} from './tiny-server.js'

let servers: Tiny[] = []
const clients: KbClient[] = []

async function setup(
  handler: Handler,
  signal: AbortSignal,
  extra: Partial<ConstructorParameters<typeof KbClient>[0]> = {}
) {
  const server = await tinyServer(handler)
  servers.push(server)
  const client = new KbClient({apiUrl: `${server.url}/v4`, token: 'tok', retryBaseMs: 5, signal, ...extra})
  clients.push(client)
  return {server, client}
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
  await Promise.all(servers.map((s) => s.close()))
  servers = []
})

const reason = new Error('stopped by SIGTERM')

describe("the client's signal", () => {
  it('cuts off a request in flight at once and rejects with the reason, sending nothing again', async () => {
    const stop = new AbortController()
    const {server, client} = await setup(() => undefined, stop.signal, {timeoutMs: 20_000})
    const call = client.getItem('T').catch((e: unknown) => e)
    while (server.seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    const started = performance.now()
    stop.abort(reason)
    expect(await call).toBe(reason)
    expect(performance.now() - started).toBeLessThan(500)
    expect(server.seen).toHaveLength(1)
  })

  it('ends a backoff wait, and sends nothing once stopped', async () => {
    const stop = new AbortController()
    const {server, client} = await setup((_req, res) => json(res, 503, {error: 'busy'}), stop.signal, {
      retryBaseMs: 60_000,
      maxRetryWaitMs: 60_000,
      retries: 5
    })
    const call = client.getItem('T').catch((e: unknown) => e)
    while (server.seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    await new Promise((resolve) => setTimeout(resolve, 50))
    stop.abort(reason)
    expect(await call).toBe(reason)
    expect(await client.getItem('U').catch((e: unknown) => e)).toBe(reason)
    expect(server.seen.length).toBeLessThanOrEqual(2)
  })

  it('changes nothing while it is not aborted', async () => {
    const {client} = await setup((_req, res) => json(res, 200, item('T')), new AbortController().signal)
    expect((await client.getItem('T')).id).toBe('T')
  })
})

/**
 * Bodies over a proxy's size limit, and answers that wait while the event
 * loop is held, through the real client against the real local server.
 *
 * The proxy in front of the server answers a request whose body is over its
 * limit with a 413 page and closes the connection at once, unread, as a
 * proxy that does not drain does: the client mostly meets `EPIPE` or
 * `ECONNRESET` while still sending, not the answer. Such a page must fail
 * soon, with its size and what to do, and the others go on.
 */
import net from 'node:net'
import type {AddressInfo} from 'node:net'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {KbClient, type ClientEvent} from '../../src/api/index.js'
import {startServer, type RunningServer} from '../../src/server/index.js'

const limit = 1024 * 1024

/** How the proxy refuses a body over its limit: a 413 page then a close, or a reset before any answer (the answer lost). */
type Refusal = 'answer' | 'reset'

/** A TCP proxy to `target` that refuses, unread, a request whose declared body is over `limit`; one request per connection. */
async function refusingProxy(
  target: URL
): Promise<{url: string; refused: () => number; refuseBy(how: Refusal): void; close(): Promise<void>}> {
  let refused = 0
  let refusal: Refusal = 'answer'
  const server = net.createServer((client) => {
    let head = Buffer.alloc(0)
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk])
      const end = head.indexOf('\r\n\r\n')
      if (end < 0) return
      client.off('data', onData)
      client.pause()
      const text = head.subarray(0, end).toString('latin1')
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(text)?.[1] ?? 0)
      if (length > limit) {
        refused++
        if (refusal === 'reset') return void client.resetAndDestroy()
        const page = '<html><head><title>413 Request Entity Too Large</title></head><body>nginx</body></html>'
        client.write(
          `HTTP/1.1 413 Request Entity Too Large\r\nContent-Type: text/html\r\nContent-Length: ${page.length}\r\nConnection: close\r\n\r\n${page}`
        )
        client.destroy()
        return
      }
      const upstream = net.connect(Number(target.port), target.hostname, () => {
        // One request per connection, and the host the server answers to (it refuses other names).
        const closing =
          text.replace(/\r\n(connection|host):[^\r]*/gi, '') + `\r\nhost: ${target.host}\r\nconnection: close`
        upstream.write(Buffer.concat([Buffer.from(closing, 'latin1'), head.subarray(end)]))
        client.pipe(upstream).pipe(client)
        client.resume()
      })
      upstream.on('error', () => client.destroy())
      client.on('error', () => upstream.destroy())
    }
    client.on('data', onData)
    client.on('error', () => undefined)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    refused: () => refused,
    refuseBy: (how) => (refusal = how),
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

describe('a body over a proxy limit that closes unread', () => {
  let server: RunningServer
  let proxy: Awaited<ReturnType<typeof refusingProxy>>
  let client: KbClient
  const events: ClientEvent[] = []

  beforeAll(async () => {
    server = await startServer({port: 0})
    proxy = await refusingProxy(new URL(server.apiUrl))
    client = new KbClient({
      apiUrl: proxy.url,
      token: server.token,
      retryBaseMs: 20,
      onEvent: (e) => events.push(e)
    })
  })

  afterAll(async () => {
    await client?.close()
    await proxy?.close()
    await server?.close()
  })

  it('fails that page after two broken writes, naming its size and what to do; the other pages are written', async () => {
    proxy.refuseBy('reset')
    const big = 'word '.repeat(420_000)
    const results = await Promise.allSettled([
      client.createItem({type: 'article', title: 'Small 1', body: 'one'}),
      client.createItem({type: 'article', title: 'Big', body: big}),
      client.createItem({type: 'article', title: 'Small 2', body: 'two'})
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    const failure = (results[1] as PromiseRejectedResult).reason as Error & {retryable: boolean}
    expect(failure.message).toMatch(/2\.0 MB/)
    expect(failure.message).toMatch(/split it into several pages/)
    expect(failure.message).not.toMatch(/<html|<title/i)
    expect(failure.retryable).toBe(false)
    // Sent at most twice: a body that broke twice is not sent a third time.
    expect(proxy.refused()).toBeLessThanOrEqual(2)
    expect(server.items().map((i) => i.title)).toEqual(expect.arrayContaining(['Small 1', 'Small 2']))
    expect(server.items().some((i) => i.title === 'Big')).toBe(false)
  })

  it('a 413 answer names the size and what to do; no body is sent more than twice', async () => {
    proxy.refuseBy('answer')
    const before = proxy.refused()
    const bigger = 'term '.repeat(500_000)
    await expect(client.createItem({type: 'article', title: 'Bigger', body: bigger})).rejects.toThrow(/2\.4 MB/)
    expect(proxy.refused() - before).toBeLessThanOrEqual(2)
  })
})

describe('an answer waiting while the event loop is held', () => {
  let server: RunningServer
  let client: KbClient
  const events: ClientEvent[] = []

  beforeAll(async () => {
    server = await startServer({port: 0})
    client = new KbClient({apiUrl: server.apiUrl, token: server.token, timeoutMs: 1000, onEvent: (e) => events.push(e)})
    await client.getChildren()
  })

  afterAll(async () => {
    await client?.close()
    await server?.close()
  })

  it('is read, not cut off by the time-out that came due meanwhile', async () => {
    events.length = 0
    server.resetLog()
    const creating = client.createItem({type: 'article', title: 'Answered', body: 'held'})
    // Once the server has answered, the loop is held past the time-out, as a long conversion on the main thread
    // holds it: after I/O (here: a check-phase callback), so that the next turn of the loop starts with its timers.
    await new Promise<void>((resolve) => {
      const poll = () => {
        if (!server.requestLog().some((e) => e.method === 'POST' && e.status === 200)) return void setImmediate(poll)
        const until = Date.now() + 2500
        while (Date.now() < until);
        resolve()
      }
      setImmediate(poll)
    })
    const item = await creating
    expect(item.title).toBe('Answered')
    expect(events.filter((e) => e.type === 'response' && e.errorCode === 'timeout')).toEqual([])
    expect(client.stats().concurrencyDecreases).toBe(0)
    expect(server.counts()['create']).toBe(1)
  })
})

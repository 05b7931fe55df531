/**
 * Adaptive concurrency (issue 18): dropped connections halve the pool once
 * per burst, answers grow it back by one per round up to the configured
 * concurrency, and the calls of a burst all complete.
 */
import {afterEach, describe, expect, it} from 'vitest'
import {KbClient, type ClientEvent} from '../../src/api/index.js'
import {CongestionWindow} from '../../src/api/congestion.js'
import {Semaphore} from '../../src/api/limiter.js'
import {item, json, tinyServer, type Tiny} from './tiny-server.js'

let server: Tiny | undefined
let client: KbClient | undefined

afterEach(async () => {
  await client?.close()
  await server?.close()
})

describe('CongestionWindow', () => {
  it('halves once per round of drops, never below 1, and grows by one per `limit` answers up to the maximum', () => {
    const window = new CongestionWindow(8)
    const sent = window.epoch
    expect(window.dropped(sent)).toBe(true)
    // The rest of the burst was sent before the halving: no second halving for it.
    expect(window.dropped(sent)).toBe(false)
    expect(window.limit).toBe(4)
    expect(window.dropped(window.epoch)).toBe(true)
    expect(window.dropped(window.epoch)).toBe(true)
    expect(window.dropped(window.epoch)).toBe(false)
    expect([window.limit, window.lowest, window.decreases]).toEqual([1, 1, 3])
    const grown: number[] = []
    for (let i = 0; i < 60; i++) if (window.answer()) grown.push(window.limit)
    expect(grown).toEqual([2, 3, 4, 5, 6, 7, 8])
    expect(window.limit).toBe(8)
  })

  it('a drop in the middle of growing starts the count again', () => {
    const window = new CongestionWindow(4)
    window.dropped(window.epoch)
    window.answer()
    window.dropped(window.epoch - 1)
    expect(window.answer()).toBe(false)
    expect(window.answer()).toBe(true)
    expect(window.limit).toBe(3)
  })
})

describe('Semaphore of a changing size', () => {
  it('lets in no more than the current size, and more after it grows', async () => {
    let size = 2
    const gate = new Semaphore(() => size)
    const held = [await gate.acquire(), await gate.acquire()]
    let third = false
    const waiting = gate.acquire().then((release) => {
      third = true
      return release
    })
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(third).toBe(false)
    size = 3
    gate.drain()
    const release = await waiting
    expect(third).toBe(true)
    size = 1
    for (const r of [...held, release]) r()
  })
})

describe('against a server that drops connections while too many are in flight', () => {
  it('halves down to what the server takes, completes every call, and grows back once it stops dropping', async () => {
    let dropping = true
    let inFlight = 0
    server = await tinyServer(async (req, res) => {
      inFlight++
      try {
        if (dropping && inFlight > 2) return 'drop'
        await new Promise((resolve) => setTimeout(resolve, 15))
        json(res, 200, item(req.url.split('/').pop()!))
      } finally {
        inFlight--
      }
    })
    const events: ClientEvent[] = []
    client = new KbClient({
      apiUrl: `${server.url}/v4`,
      token: 'tok-0123456789',
      concurrency: 8,
      retryBaseMs: 20,
      onEvent: (e) => events.push(e)
    })
    const ids = Array.from({length: 60}, (_, i) => `A${i}`)
    const items = await Promise.all(ids.map((id) => client!.getItem(id)))
    expect(items.map((i) => i.id)).toEqual(ids)
    const stats = client.stats()
    expect(stats.lowestConcurrency).toBeLessThanOrEqual(2)
    // Once per burst, not once per dropped request.
    const drops = server.seen.length - ids.length
    expect(drops).toBeGreaterThan(0)
    expect(stats.concurrencyDecreases).toBeLessThan(drops)

    dropping = false
    const more = Array.from({length: 120}, (_, i) => `B${i}`)
    await Promise.all(more.map((id) => client!.getItem(id)))
    const limits = events.filter((e) => e.type === 'concurrency').map((e) => e.limit)
    expect(limits.at(-1)).toBe(8)
    expect(server.maxInFlight()).toBeLessThanOrEqual(8)
  })
})

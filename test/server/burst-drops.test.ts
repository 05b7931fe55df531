/**
 * The platform habit of dropped connections under a quick series of
 * requests (`platformHabits.dropOver`), end to end through HTTP.
 */
import {request} from 'node:http'
import {describe, expect, it} from 'vitest'
import {createBurstDropper} from '../../src/server/burst-drops.js'
import {serversPerTest} from './helpers.js'

const start = serversPerTest({seed: 7})

/** GETs `url` with `token` on a fresh connection; resolves to the status, or 'dropped' when the socket closed without an answer. */
function get(url: string, token: string): Promise<number | 'dropped'> {
  return new Promise((resolve) => {
    const sent = request(url, {headers: {authorization: `Bearer ${token}`}, agent: false}, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
    sent.on('error', () => resolve('dropped'))
    sent.end()
  })
}

describe('platform habit: dropped connections in bursts', () => {
  it('drops every request beyond N within a second, without an answer and without applying it', async () => {
    const {server, call} = await start({platformHabits: {dropOver: 5}})
    const url = `${server.apiUrl}/knowledgebase/structure`
    const outcomes = await Promise.all(Array.from({length: 12}, () => get(url, server.token)))
    expect(outcomes.filter((o) => o === 200)).toHaveLength(5)
    expect(outcomes.filter((o) => o === 'dropped')).toHaveLength(7)
    const dropped = server.requestLog().filter((e) => e.faulted === 'drop-burst')
    expect(dropped).toHaveLength(7)
    expect(dropped[0]).toMatchObject({endpoint: 'structure', status: 0})

    // A dropped write changes nothing.
    await new Promise((resolve) => setTimeout(resolve, 1100))
    server.setFaults({dropOver: 1})
    const first = await call('POST', '/knowledgebase', {title: 'Kept', body: 'x'})
    expect(first.status).toBe(200)
    await expect(call('POST', '/knowledgebase', {title: 'Lost', body: 'x'})).rejects.toThrow()
    expect(server.items().map((i) => i.title)).toEqual(['Kept'])
  })

  it('lets requests through again once the pace drops, and never drops when off', async () => {
    const {server} = await start({platformHabits: {dropOver: 3}})
    const url = `${server.apiUrl}/knowledgebase/structure`
    expect(await Promise.all(Array.from({length: 6}, () => get(url, server.token)))).toContain('dropped')
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect(await get(url, server.token)).toBe(200)
    server.setFaults({dropOver: 0})
    expect(await Promise.all(Array.from({length: 20}, () => get(url, server.token)))).toEqual(Array(20).fill(200))
  })

  it('counts dropped arrivals too, so a client that keeps its pace keeps losing requests', () => {
    let time = 0
    const dropper = createBurstDropper(2, () => time)
    const fates = []
    for (let i = 0; i < 8; i++) {
      fates.push(dropper.arrive())
      time += 300
    }
    // Arrivals at 0..2100 ms, 300 ms apart: after the first two, each second holds more than two.
    expect(fates).toEqual([false, false, true, true, true, true, true, true])
    time += 1000
    expect(dropper.arrive()).toBe(false)
  })
})

/**
 * Scale: 300 articles in 15 topics, each linking to its neighbours. A no-op
 * push must stay one structure read and fast (watch mode runs it on every save).
 */
import {mkdtemp, mkdir, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {push} from '../../src/sync/index.js'
import {FakeClient} from './fake-client.js'

let dir = ''
afterAll(async () => {
  if (dir) await rm(dir, {recursive: true, force: true})
})

describe('a larger tree', () => {
  it('pushes 300 linked articles, then a no-op push reads only the structure', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kbsync-scale-'))
    for (let topic = 0; topic < 15; topic++) {
      await mkdir(path.join(dir, `topic-${topic}`))
      for (let article = 0; article < 20; article++) {
        const next = `../topic-${(topic + 1) % 15}/page-${article}.md`
        await writeFile(
          path.join(dir, `topic-${topic}`, `page-${article}.md`),
          `# Page ${topic}.${article}\n\nSee [the next one](${next}).\n`
        )
      }
    }
    const client = new FakeClient()
    const first = await push({dir, client})
    expect(first.failed).toEqual([])
    expect(client.items.size).toBe(315)
    // 20 link cycles (page k of every topic, round the 15 topics): one provisional create, so one extra write, per cycle.
    expect(client.calls.filter((c) => c.startsWith('POST'))).toHaveLength(315)
    expect(client.calls.filter((c) => c.startsWith('PUT'))).toHaveLength(20)
    const firstWrites = client.writes
    client.calls = []
    const started = performance.now()
    const second = await push({dir, client})
    const elapsed = performance.now() - started
    expect(second.plan.ops).toEqual([])
    expect(client.calls).toEqual(['GET structure'])
    console.log(`no-op push of 300 articles: ${elapsed.toFixed(0)} ms; first push: ${firstWrites} writes`)
    // Generous: the machine may be shared; a regression to per-item requests would fail the call check above anyway.
    expect(elapsed).toBeLessThan(20_000)
  }, 60_000)
})

/**
 * Crash safety, exhaustively and fast: the push dies at every write of a
 * first push and of an update push (before the write reaches the server, or
 * after it was applied but before the answer came back); the next push must
 * always finish the job without duplicates.
 */
import {cp, mkdtemp, rename, rm, readFile, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {planPush, provisionalBody, push, type SyncClient} from '../../src/sync/index.js'
import {FakeClient} from './fake-client.js'

const temporary: string[] = []
afterAll(async () => {
  for (const dir of temporary) await rm(dir, {recursive: true, force: true})
})

const writeMethods = new Set(['createItem', 'updateItem', 'deleteItem', 'setPermissions', 'uploadFile'])

/** A client that dies at its `at`-th write: before sending it, or after the server applied it. */
function dying(client: FakeClient, at: number, applied: boolean): SyncClient {
  let count = 0
  let dead = false
  return new Proxy(client, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver)
      if (typeof value !== 'function') return value
      return async (...args: unknown[]) => {
        if (dead) throw new Error('process killed')
        if (writeMethods.has(String(name)) && ++count === at) {
          dead = true
          if (applied) await value.apply(target, args)
          throw new Error('process killed')
        }
        return value.apply(target, args)
      }
    }
  })
}

async function freshTree(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-crash-'))
  temporary.push(dir)
  await cp(path.resolve('fixtures/trees/basic'), dir, {recursive: true})
  return dir
}

async function changeTree(dir: string): Promise<void> {
  const faq = path.join(dir, 'faq.md')
  await writeFile(faq, (await readFile(faq, 'utf8')).replace('support desk', 'help desk'))
  await rename(path.join(dir, 'welcome.md'), path.join(dir, 'guides', 'welcome.md'))
  const moved = path.join(dir, 'guides', 'welcome.md')
  await writeFile(
    moved,
    (await readFile(moved, 'utf8'))
      .replaceAll('](guides/', '](')
      .replace('(faq.md#', '(../faq.md#')
      .replace('(img/logo.png)', '(../img/logo.png)')
  )
  await writeFile(faq, (await readFile(faq, 'utf8')).replace('(welcome.md)', '(guides/welcome.md)'))
  await writeFile(
    path.join(dir, 'guides', 'new.md'),
    '# New page\n\nLinks to [welcome](welcome.md) and back.\n\n![Logo](../img/logo.png)\n'
  )
  const welcome = path.join(dir, 'guides', 'welcome.md')
  await writeFile(welcome, (await readFile(welcome, 'utf8')) + '\nSee also the [new page](new.md).\n')
}

async function expectInStep(dir: string, client: FakeClient): Promise<void> {
  const titles = [...client.items.values()].map((s) => `${s.parent} ${s.title}`)
  expect(new Set(titles).size, titles.join('\n')).toBe(titles.length)
  for (const item of client.items.values()) expect(item.body).not.toContain(provisionalBody)
  const plan = await planPush({dir, client})
  expect(plan.ops.map((op) => `${op.op} ${op.path}`)).toEqual([])
  expect(plan.orphans).toEqual([])
}

describe('a push killed at any write, then run again', () => {
  for (const phase of ['first push', 'update push'] as const) {
    for (const applied of [false, true]) {
      it(`${phase}, killed ${applied ? 'after the server applied the write' : 'before the write'}`, async () => {
        // Count the writes of an undisturbed run to know every point to kill at.
        const probeDir = await freshTree()
        const probe = new FakeClient()
        await push({dir: probeDir, client: probe})
        let total = probe.writes
        if (phase === 'update push') {
          await changeTree(probeDir)
          const before = probe.writes
          await push({dir: probeDir, client: probe})
          total = probe.writes - before
        }
        expect(total).toBeGreaterThanOrEqual(3)
        for (let at = 1; at <= total; at++) {
          const dir = await freshTree()
          const client = new FakeClient()
          if (phase === 'update push') {
            await push({dir, client})
            await changeTree(dir)
          }
          await push({dir, client: dying(client, at, applied)}).catch(() => undefined)
          const again = await push({dir, client})
          expect(again.failed, `killed at write ${at}`).toEqual([])
          await expectInStep(dir, client)
        }
      }, 60_000)
    }
  }
})

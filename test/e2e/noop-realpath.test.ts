/**
 * A no-op push and a no-op pull ask `realpath` for the synced folder once
 * or so, not once per file read (issue 32: each read through the trust
 * rules of `trust/read.ts` found the real path of its boundary again, 31,000
 * times in a no-op push of 30,000 articles), and they still see an edit
 * that keeps the file's size and time stamps. Counted at `node:fs`, end to
 * end through the CLI against the real local server.
 */
import {mkdtemp, readdir, readFile, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it, vi} from 'vitest'
import {generateScaleTree} from '../../bench/scale-tree.js'
import {useLocalServer} from './local-server.js'
import {editInPlace} from './edit-in-place.js'
import {cli} from './push-helpers.js'

const calls = vi.hoisted(() => ({realpath: 0}))

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>()
  const counted = (...args: Parameters<typeof actual.realpathSync.native>) => {
    calls.realpath++
    return actual.realpathSync.native(...args)
  }
  const realpathSync = Object.assign(
    (...args: Parameters<typeof actual.realpathSync>) => {
      calls.realpath++
      return actual.realpathSync(...args)
    },
    {native: counted}
  )
  return {...actual, realpathSync, default: {...actual, realpathSync}}
})

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>()
  const realpath = (...args: Parameters<typeof actual.realpath>) => {
    calls.realpath++
    return actual.realpath(...args)
  }
  return {...actual, realpath, default: {...actual, realpath}}
})

const local = useLocalServer()
const folders: string[] = []
afterAll(async () => {
  for (const dir of folders) await rm(dir, {recursive: true, force: true})
})

function counted(): number {
  const seen = calls.realpath
  calls.realpath = 0
  return seen
}

async function folder(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), `kbsync-noop-realpath-${name}-`))
  folders.push(dir)
  return dir
}

describe('no-op runs and the real path of the folder', () => {
  it('a no-op push and pull ask realpath a few times, not per file; an edit keeping size and mtime is still seen', async () => {
    const source = await folder('src')
    await generateScaleTree(source, 120, 40)
    expect((await cli(['push', source], local.env)).code).toBe(0)
    const dir = await folder('dst')
    const first = await cli(['pull', dir], local.env)
    expect(first.code, first.err).toBe(0)
    expect((await cli(['push', dir], local.env)).code).toBe(0)

    counted()
    const noopPush = await cli(['push', dir], local.env)
    expect(noopPush.out).toMatch(/Done: 0 steps, 0 write requests/)
    // One per file read before (123 documents, each linking to others); now one per folder walked, and a few.
    expect(counted()).toBeLessThan(25)
    const noopPull = await cli(['pull', dir], local.env)
    expect(noopPull.code, noopPull.err).toBe(0)
    expect(noopPull.out).toMatch(/Done: 0 files written/)
    expect(counted()).toBeLessThan(25)

    const articles = (await readdir(dir, {recursive: true}))
      .filter((name) => name.endsWith('.md') && !path.basename(name).startsWith('_'))
      .sort()
    await editInPlace(path.join(dir, articles[7]!))
    const pushed = await cli(['push', dir], local.env)
    expect(pushed.code, pushed.err).toBe(0)
    expect(pushed.out).toMatch(/Done: 1 step, 1 write request/)
    const item = (await local.client.getTree(null)).length
    expect(item).toBeGreaterThan(0)

    // Edited locally again, not pushed: a pull keeps the edit (nothing changed on the platform).
    const file = path.join(dir, articles[9]!)
    await editInPlace(file)
    const kept = await readFile(file, 'utf8')
    const pulled = await cli(['pull', dir], local.env)
    expect(pulled.code, pulled.err).toBe(0)
    expect(await readFile(file, 'utf8')).toBe(kept)
    const again = await cli(['push', dir], local.env)
    expect(again.out).toMatch(/Done: 1 step, 1 write request/)
  }, 120_000)
})

/**
 * A pull through the conversion pool (one worker beside the main thread,
 * which helps while the worker is busy) writes the same bytes and records
 * the same state as a pull that converts in the main thread alone: the
 * early conversions and the check's renders move thread, not result. End
 * to end through the CLI against the real local server.
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {generateScaleTree} from '../../bench/scale-tree.js'
import {closeConversionPool, workersVariable} from '../../src/workers/index.js'
import {snapshot} from '../pull/folder-snapshot.js'
import {temporaryFolders} from '../temp-folders.js'
import {useLocalServer} from './local-server.js'
import {cli} from './push-helpers.js'

const local = useLocalServer()
const folders = temporaryFolders('pull-workers')
const setting = process.env[workersVariable]
afterEach(async () => {
  await closeConversionPool()
  if (setting === undefined) delete process.env[workersVariable]
  else process.env[workersVariable] = setting
})
afterAll(() => folders.removeAll())

/** Pulls into a fresh folder with `workers` conversion workers (the process's pool started anew). */
async function pullWith(workers: number): Promise<string> {
  await closeConversionPool()
  process.env[workersVariable] = String(workers)
  const dir = await folders.make()
  const pulled = await cli(['pull', dir], local.env)
  expect(pulled.code, pulled.err).toBe(0)
  expect(pulled.out + pulled.err).not.toMatch(/pull-not-exact/)
  return dir
}

/** What the state records of each item for push to compare, by path. */
async function recorded(dir: string): Promise<Record<string, unknown>> {
  const state = JSON.parse(await readFile(path.join(dir, '.kbsync', 'state.json'), 'utf8')) as {
    items: Record<string, {id?: string; sourceHash?: string; renderedHash?: string; remoteHash?: string}>
  }
  return Object.fromEntries(
    Object.entries(state.items).map(([key, {id, sourceHash, renderedHash, remoteHash}]) => [
      key,
      {id, sourceHash, renderedHash, remoteHash}
    ])
  )
}

describe('pull through the conversion pool', () => {
  it('writes byte-identical files and the same state with one worker as with none; a push after either sends nothing', async () => {
    const source = await folders.make()
    await generateScaleTree(source, 40)
    const pushed = await cli(['push', source], local.env)
    expect(pushed.code, pushed.err).toBe(0)

    const alone = await pullWith(0)
    const pooled = await pullWith(1)
    const files = await snapshot(alone)
    expect(Object.keys(files).length).toBeGreaterThan(40)
    expect(await snapshot(pooled)).toEqual(files)
    const state = await recorded(alone)
    expect(
      Object.values(state).filter((entry) => (entry as {renderedHash?: string}).renderedHash).length
    ).toBeGreaterThan(40)
    expect(await recorded(pooled)).toEqual(state)
    for (const dir of [alone, pooled]) {
      const noop = await cli(['push', dir], local.env)
      expect(noop.code, noop.err).toBe(0)
      expect(noop.out).toMatch(/Done: 0 steps, 0 write requests/)
    }
  }, 180_000)
})

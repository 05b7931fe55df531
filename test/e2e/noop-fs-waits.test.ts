/**
 * A no-op push and a no-op pull wait on libuv's thread pool a few times,
 * not once per folder or per downloaded file (issue 32): the walk listed
 * each folder asynchronously, one after the other, and every pull looked
 * at the head of each file in `_assets/` through five asynchronous steps,
 * one file after the other. And the scan splits no document's whole text
 * into lines to read its front matter and title. Counted at `node:fs/promises`
 * and `String.prototype.split`, end to end through the CLI (in process)
 * against the real local server; an edit is still seen by both.
 */
import {mkdtemp, readdir, readFile, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it, vi} from 'vitest'
import {generateScaleTree} from '../../bench/scale-tree.js'
import {useLocalServer} from './local-server.js'
import {editInPlace} from './edit-in-place.js'
import {cli} from './push-helpers.js'

const waits = vi.hoisted(() => ({counting: false, byName: new Map<string, number>()}))

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>()
  const counted = <F extends (...args: never[]) => unknown>(name: string, f: F): F =>
    ((...args: Parameters<F>) => {
      if (waits.counting) waits.byName.set(name, (waits.byName.get(name) ?? 0) + 1)
      return f(...args)
    }) as F
  const readdir = counted('readdir', actual.readdir)
  const open = counted('open', actual.open)
  const realpath = counted('realpath', actual.realpath)
  const replaced = {readdir, open, realpath}
  return {...actual, ...replaced, default: {...actual, ...replaced}}
})

const local = useLocalServer()
const folders: string[] = []
afterAll(async () => {
  for (const dir of folders) await rm(dir, {recursive: true, force: true})
})

async function folder(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), `kbsync-noop-waits-${name}-`))
  folders.push(dir)
  return dir
}

/** Runs `argv` counting the asynchronous reads by name and the splits of a text into lines. */
async function counting(argv: string[]): Promise<{out: string; waits: Record<string, number>; lineSplits: number}> {
  const split = String.prototype.split
  let lineSplits = 0
  // A whole text split into lines: the scan read each document's first lines that way, three times a document.
  String.prototype.split = function (this: string, ...args: Parameters<typeof split>) {
    const separator: unknown = args[0]
    if (separator === '\n' && this.length > 200) lineSplits++
    return split.apply(this, args)
  } as typeof split
  waits.byName.clear()
  waits.counting = true
  try {
    const run = await cli(argv, local.env)
    expect(run.code, run.err).toBe(0)
    return {out: run.out, waits: Object.fromEntries(waits.byName), lineSplits}
  } finally {
    waits.counting = false
    String.prototype.split = split
  }
}

describe('no-op runs and the thread pool', () => {
  it('a no-op push and pull list no folder and open no downloaded file asynchronously; edits are still seen', async () => {
    const source = await folder('src')
    const tree = await generateScaleTree(source, 100, 10)
    expect(tree.images).toBeGreaterThan(2)
    expect((await cli(['push', source], local.env)).code).toBe(0)
    const dir = await folder('dst')
    expect((await cli(['pull', dir], local.env)).code).toBe(0)
    // The first push of a pulled folder parses its bodies (the body cache is push's): the no-op is the next one.
    expect((await cli(['push', dir], local.env)).code).toBe(0)

    const push = await counting(['push', dir])
    expect(push.out).toMatch(/Done: 0 steps, 0 write requests/)
    // One listing per folder before (the 10 topics and their image folders), now none.
    expect(push.waits.readdir ?? 0).toBe(0)
    expect(push.lineSplits).toBeLessThan(10)

    const pull = await counting(['pull', dir])
    expect(pull.out).toMatch(/Done: 0 files written/)
    // Before: each `_assets/` folder listed and its real path asked, each file in it opened, one after the other.
    expect(pull.waits.readdir ?? 0).toBe(0)
    expect(pull.waits.realpath ?? 0).toBeLessThan(4)
    expect(pull.waits.open ?? 0).toBeLessThan(6)
    expect(pull.lineSplits).toBeLessThan(10)

    const articles = (await readdir(dir, {recursive: true}))
      .filter((name) => name.endsWith('.md') && !path.basename(name).startsWith('_'))
      .sort()
    await editInPlace(path.join(dir, articles[3]!))
    const pushed = await cli(['push', dir], local.env)
    expect(pushed.out).toMatch(/Done: 1 step, 1 write request/)
    const file = path.join(dir, articles[5]!)
    await editInPlace(file)
    const kept = await readFile(file, 'utf8')
    expect((await cli(['pull', dir], local.env)).code).toBe(0)
    expect(await readFile(file, 'utf8')).toBe(kept)
    expect((await cli(['push', dir], local.env)).out).toMatch(/Done: 1 step, 1 write request/)
  }, 120_000)
})

/**
 * A no-op push reads every file (to hash it) but parses none and leaves the
 * state file as it was, and a push after one edit parses only that file: counted at the one door every
 * Markdown parse goes through (`dialect/index.ts`), end to end through the
 * CLI against the real local server.
 */
import {appendFile, mkdtemp, readdir, rm, stat} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it, vi} from 'vitest'
import {generateScaleTree} from '../../bench/scale-tree.js'
import {useLocalServer} from './local-server.js'
import {cli} from './push-helpers.js'

const parses = vi.hoisted(() => ({gfm: 0, kb: 0}))

vi.mock('../../src/dialect/index.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/dialect/index.js')>()
  return {
    ...actual,
    gfmToKbTree: (...args: Parameters<typeof actual.gfmToKbTree>) => {
      parses.gfm++
      return actual.gfmToKbTree(...args)
    },
    parseKb: (...args: Parameters<typeof actual.parseKb>) => {
      parses.kb++
      return actual.parseKb(...args)
    }
  }
})

const local = useLocalServer()
const folders: string[] = []
afterAll(async () => {
  for (const dir of folders) await rm(dir, {recursive: true, force: true})
})

function counted(): {gfm: number; kb: number} {
  const seen = {...parses}
  parses.gfm = parses.kb = 0
  return seen
}

describe('a no-op push', () => {
  it('parses no body and rewrites no state; after one edit, it parses that one only', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-noop-parse-'))
    folders.push(dir)
    await generateScaleTree(dir, 80, 12)
    const first = await cli(['push', dir], local.env)
    expect(first.code, first.err).toBe(0)
    expect(counted().gfm).toBeGreaterThanOrEqual(80)
    const stateFile = path.join(dir, '.kbsync', 'state.json')
    const written = await stat(stateFile)

    const again = await cli(['push', dir], local.env)
    expect(again.code, again.err).toBe(0)
    expect(again.out).toMatch(/Done: 0 steps, 0 write requests/)
    expect(counted()).toEqual({gfm: 0, kb: 0})
    // Written whole, the state would be a new file (a temporary renamed over it).
    const after = await stat(stateFile)
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs])

    const articles = (await readdir(dir, {recursive: true})).filter((name) => name.endsWith('.md')).sort()
    const file = path.join(dir, articles[5]!)
    // A line with code: a body that needs a real parse (a plain one is read by a pattern, `plain-body.ts`).
    await appendFile(file, '\nOne more line with `code` in it.\n')
    const edited = await cli(['push', dir], local.env)
    expect(edited.code, edited.err).toBe(0)
    expect(counted().gfm).toBe(1)
    expect((await stat(stateFile)).ino).not.toBe(after.ino)
  })
})

/**
 * The sweep of dead runs' temporary files in process (`src/local/stale-temp.ts`),
 * with the process table injected; `test/reliability/transfers.test.ts` runs it
 * through the CLI.
 */
import {existsSync} from 'node:fs'
import {mkdir, symlink, utimes, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {isStale, kbsyncTemp, processStart, removeStaleTemps, type ProcessStart} from '../../src/local/stale-temp.js'
import {temporaryFolders} from '../temp-folders.js'

const folders = temporaryFolders('stale-temp')
afterAll(() => folders.removeAll())

const dead = 4_000_001
const live = 4_000_002
const reused = 4_000_003
const now = Date.now()
const processes: ProcessStart = async (pid) =>
  pid === live
    ? {alive: true, startedAt: now - 3_600_000}
    : pid === reused
      ? {alive: true, startedAt: now}
      : {alive: false}

describe('kbsyncTemp and isStale', () => {
  it('knows each scheme where it is written, and nothing else', () => {
    expect(kbsyncTemp(`.a.md.${dead}.3.tmp`, 'docs')).toEqual({pid: dead})
    expect(kbsyncTemp(`.a.png.${dead}.0123456789ab.part`, '')).toEqual({pid: dead})
    expect(kbsyncTemp('.a.png.0123456789ab.part', '')).toEqual({})
    expect(kbsyncTemp(`local-kb.json.lock.${dead}.0123abcd.tmp`, '.kbsync')).toEqual({pid: dead})
    expect(kbsyncTemp(`local-kb.json.lock.${dead}.0123abcd.tmp`, 'docs')).toBeUndefined()
    expect(kbsyncTemp(`${dead}.7`, '.kbsync/downloads')).toEqual({pid: dead})
    expect(kbsyncTemp('17', '.kbsync/downloads')).toEqual({})
    expect(kbsyncTemp('17', 'docs')).toBeUndefined()
    expect(kbsyncTemp('notes.tmp', 'docs')).toBeUndefined()
  })

  it('a dead writer, a reused id or an old nameless file is stale; a live run is not', async () => {
    expect(await isStale({pid: dead}, now, now, processes)).toBe(true)
    expect(await isStale({pid: reused}, now - 60_000, now, processes)).toBe(true)
    expect(await isStale({pid: live}, now - 60_000, now, processes)).toBe(false)
    expect(await isStale({}, now - 2 * 3_600_000, now, processes)).toBe(true)
    expect(await isStale({}, now - 60_000, now, processes)).toBe(false)
    expect((await processStart(process.pid)).alive).toBe(true)
  })
})

describe('removeStaleTemps', () => {
  it("removes dead runs' files, keeps live ones, links, dot-folders, node_modules and ignored folders", async () => {
    const root = await folders.make()
    const files = [
      `.a.md.${dead}.1.tmp`,
      `guide/.b.md.${reused}.2.tmp`,
      `.kbsync/.state.json.${dead}.3.tmp`,
      `.kbsync/downloads/${dead}.4`,
      `.c.md.${live}.5.tmp`,
      `.github/.d.md.${dead}.6.tmp`,
      `node_modules/.e.md.${dead}.7.tmp`,
      `drafts/.f.md.${dead}.8.tmp`,
      'keep.md'
    ]
    for (const file of files) {
      await mkdir(path.dirname(path.join(root, file)), {recursive: true})
      await writeFile(path.join(root, file), 'x')
    }
    await utimes(path.join(root, `guide/.b.md.${reused}.2.tmp`), new Date(now - 60_000), new Date(now - 60_000))
    const outside = path.join(await folders.make(), `.g.md.${dead}.9.tmp`)
    await writeFile(outside, 'x')
    await symlink(outside, path.join(root, `.g.md.${dead}.9.tmp`))
    await writeFile(path.join(root, '.kbsyncignore'), 'drafts/\n')

    const removed = await removeStaleTemps(root, {started: processes})
    expect(removed.sort()).toEqual(
      [
        `.a.md.${dead}.1.tmp`,
        `guide/.b.md.${reused}.2.tmp`,
        `.kbsync/.state.json.${dead}.3.tmp`,
        `.kbsync/downloads/${dead}.4`
      ].sort()
    )
    for (const file of files.slice(4)) expect(existsSync(path.join(root, file)), file).toBe(true)
    expect(existsSync(outside)).toBe(true)
  })

  it('a folder that is not there yet has nothing to remove', async () => {
    expect(await removeStaleTemps(path.join(await folders.make(), 'new'), {started: processes})).toEqual([])
  })
})

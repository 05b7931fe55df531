/**
 * A burst the watcher reports incompletely (the flaky "99 of 100" of the
 * watch suite): chokidar reads a folder that appears and only then watches
 * it, so a file created in between is never reported, and under load its
 * reports can come later than the debounce. Here chokidar is wrapped to lose
 * or delay the reports of chosen files, deterministically; the session, the
 * engine and the local server are real. Every file of the burst is in the
 * one batch that pushes it, and a late report of a file pushed unchanged
 * costs no second push.
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {type BatchReport, type WatchSession} from '../../src/cli/watch/index.js'
import {remoteTree, waitFor} from './helpers.js'
import {watchedFolder, type WatchedFolder} from './watched-folder.js'

/** File names whose reports the wrapped watcher loses, or delivers `lateMs` late. */
const reports = vi.hoisted(() => ({lost: new Set<string>(), late: new Set<string>(), lateMs: 1500}))

vi.mock('chokidar', async (importOriginal) => {
  const real = await importOriginal<typeof import('chokidar')>()
  type Listener = (kind: string, file: string, ...rest: unknown[]) => void
  const watch: typeof real.watch = (paths, options) => {
    const watcher = real.watch(paths, options)
    const on = watcher.on.bind(watcher) as (event: string, listener: Listener) => typeof watcher
    const wrapped = (event: string, listener: Listener) => {
      if (event !== 'all') return on(event, listener)
      return on('all', (kind, file, ...rest) => {
        const name = path.basename(file)
        if (reports.lost.has(name)) return
        if (reports.late.has(name)) setTimeout(() => listener(kind, file, ...rest), reports.lateMs)
        else listener(kind, file, ...rest)
      })
    }
    Object.assign(watcher, {on: wrapped})
    return watcher
  }
  return {...real, watch, default: {...real, watch}}
})

let watched: WatchedFolder
let client: KbClient
let dir: string
let root: string
let session: WatchSession
let batches: BatchReport[]

const note = (i: number) => `note-${String(i).padStart(3, '0')}.md`

/** Writes 100 notes into the new folder `folder` at once; waits for the first pushed batch, then for `settleMs` and idleness. */
async function burst(folder: string, settleMs: number): Promise<{first: BatchReport; pushes: BatchReport[]}> {
  const before = batches.length
  await mkdir(path.join(dir, folder))
  await Promise.all(
    Array.from({length: 100}, (_, i) => writeFile(path.join(dir, folder, note(i)), `# ${folder} ${i}\n\nBody ${i}.\n`))
  )
  const first = await waitFor('a pushed batch', () => batches.slice(before).find((r) => r.status === 'ok'))
  await new Promise((resolve) => setTimeout(resolve, settleMs))
  await session.idle()
  return {first, pushes: batches.slice(before).filter((r) => r.status !== 'unstable')}
}

beforeAll(async () => {
  watched = await watchedFolder({
    name: 'unreported',
    files: {'welcome.md': '# Welcome\n\nHello.\n'},
    debounceMs: 300,
    push: {prune: true, yes: true}
  })
  ;({client, dir, root, session, reports: batches} = watched)
  await waitFor('the initial push', () => batches.find((r) => r.status === 'ok'))
  await session.idle()
}, 30_000)

afterAll(async () => {
  await watched?.close()
})

describe('watch: files of a burst the watcher does not report', () => {
  it('a file never reported is in the batch that pushes its new folder', async () => {
    reports.lost = new Set([note(98), note(99)])
    const {first, pushes} = await burst('lost', 0)
    expect(pushes).toHaveLength(1)
    const listed = first.batch.changes.filter((c) => c.path.startsWith('lost/')).map((c) => c.path)
    expect(listed.sort()).toEqual(Array.from({length: 100}, (_, i) => `lost/${note(i)}`))
    const pushed = (await remoteTree(client, root)).filter((e) => e.titlePath.startsWith('lost / lost '))
    expect(pushed).toHaveLength(100)
  }, 30_000)

  it('a report later than the debounce of a file pushed unchanged costs no second push', async () => {
    reports.lost = new Set()
    reports.late = new Set([note(50), note(99)])
    const {first, pushes} = await burst('late', reports.lateMs + 1500)
    expect(pushes).toHaveLength(1)
    expect(first.batch.changes.filter((c) => c.path.startsWith('late/'))).toHaveLength(100)
    const pushed = (await remoteTree(client, root)).filter((e) => e.titlePath.startsWith('late / late '))
    expect(pushed).toHaveLength(100)
  }, 30_000)

  it('a late report of a file changed since its push is pushed', async () => {
    reports.late = new Set([note(7)])
    const before = batches.length
    await mkdir(path.join(dir, 'edited'))
    await writeFile(path.join(dir, 'edited', note(1)), '# Edited one\n\nBody.\n')
    await writeFile(path.join(dir, 'edited', note(7)), '# Edited seven\n\nBody.\n')
    await waitFor('a pushed batch', () => batches.slice(before).find((r) => r.status === 'ok'))
    await writeFile(path.join(dir, 'edited', note(7)), '# Edited seven, again\n\nA longer body.\n')
    await waitFor('the edit pushed', async () =>
      (await remoteTree(client, root)).some((e) => e.titlePath === 'edited / Edited seven, again')
    )
  }, 30_000)
})

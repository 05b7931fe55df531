/**
 * Watch mode end to end: a real chokidar session pushing through the real
 * engine and HTTP client to the real local server. Edit, create, rename,
 * move and delete of files and folders reach the remote; a burst of 100 new
 * files is one push; an invalid file is reported and the watcher goes on.
 */
import {mkdir, rename, rm, unlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {type BatchReport, type WatchSession} from '../../src/cli/watch/index.js'
import {remoteTree, waitFor} from './helpers.js'
import {watchedFolder, type WatchedFolder} from './watched-folder.js'

let watched: WatchedFolder
let client: KbClient
let dir: string
let root: string
let session: WatchSession
let reports: BatchReport[]
let captured: WatchedFolder['captured']

/** Waits for the next batch after `since` reports that ends with `status`, and for the watcher to be idle. */
async function nextBatch(since: number, status: BatchReport['status'] = 'ok'): Promise<BatchReport> {
  const report = await waitFor(`a batch with status ${status}`, () =>
    reports.slice(since).find((r) => r.status === status)
  )
  await session.idle()
  return report
}

const article = (title: string, body: string) => `# ${title}\n\n${body}\n`

beforeAll(async () => {
  watched = await watchedFolder({
    name: 'watch',
    files: {'welcome.md': article('Welcome', 'Hello.'), 'guides/install.md': article('Install', 'Run it.')},
    debounceMs: 300,
    push: {prune: true, yes: true}
  })
  ;({client, dir, root, session, reports, captured} = watched)
  await nextBatch(0)
}, 30_000)

afterAll(async () => {
  await watched?.close()
})

describe('kbsync watch against the local server', () => {
  it('pushes the folder once at start', async () => {
    const tree = await remoteTree(client, root)
    expect(tree.map((e) => e.titlePath).sort()).toEqual(['Welcome', 'guides', 'guides / Install'])
  })

  it('an edit reaches the remote', async () => {
    const before = reports.length
    await writeFile(path.join(dir, 'welcome.md'), article('Welcome', 'Hello again, edited.'))
    await nextBatch(before)
    const id = (await remoteTree(client, root)).find((e) => e.title === 'Welcome')!.id
    expect((await client.getItem(id)).body).toContain('edited')
  })

  it('a new file is created', async () => {
    const before = reports.length
    await writeFile(path.join(dir, 'faq.md'), article('FAQ', 'Questions.'))
    await nextBatch(before)
    expect((await remoteTree(client, root)).map((e) => e.titlePath)).toContain('FAQ')
  })

  it('a renamed file keeps its remote item; then a new title renames it', async () => {
    const id = (await remoteTree(client, root)).find((e) => e.title === 'FAQ')!.id
    let before = reports.length
    await rename(path.join(dir, 'faq.md'), path.join(dir, 'questions.md'))
    await nextBatch(before)
    expect((await remoteTree(client, root)).find((e) => e.id === id)?.titlePath).toBe('FAQ')
    before = reports.length
    await writeFile(path.join(dir, 'questions.md'), article('Questions', 'Questions.'))
    await nextBatch(before)
    const tree = await remoteTree(client, root)
    expect(tree.find((e) => e.id === id)?.titlePath).toBe('Questions')
    expect(tree.some((e) => e.title === 'FAQ')).toBe(false)
  })

  it('a file moved to another folder moves its item', async () => {
    const id = (await remoteTree(client, root)).find((e) => e.title === 'Questions')!.id
    const before = reports.length
    await rename(path.join(dir, 'questions.md'), path.join(dir, 'guides', 'questions.md'))
    await nextBatch(before)
    expect((await remoteTree(client, root)).find((e) => e.id === id)?.titlePath).toBe('guides / Questions')
  })

  it('a renamed folder renames its topic; a new folder is a new topic', async () => {
    const id = (await remoteTree(client, root)).find((e) => e.title === 'guides')!.id
    const before = reports.length
    await rename(path.join(dir, 'guides'), path.join(dir, 'manuals'))
    await mkdir(path.join(dir, 'team'))
    await writeFile(path.join(dir, 'team', 'people.md'), article('People', 'Us.'))
    await nextBatch(before)
    const tree = await remoteTree(client, root)
    expect(tree.find((e) => e.id === id)?.titlePath).toBe('manuals')
    expect(tree.map((e) => e.titlePath)).toEqual(
      expect.arrayContaining(['manuals / Install', 'manuals / Questions', 'team / People'])
    )
  })

  it('deleting a file and a folder deletes their items (with prune)', async () => {
    const before = reports.length
    await unlink(path.join(dir, 'manuals', 'questions.md'))
    await rm(path.join(dir, 'team'), {recursive: true})
    await nextBatch(before)
    const titles = (await remoteTree(client, root)).map((e) => e.titlePath)
    expect(titles).not.toContain('manuals / Questions')
    expect(titles).not.toContain('team')
    expect(titles).not.toContain('team / People')
  })

  it('a burst of 100 new files is pushed as one coalesced batch', async () => {
    const before = reports.length
    await mkdir(path.join(dir, 'burst'))
    await Promise.all(
      Array.from({length: 100}, (_, i) =>
        writeFile(path.join(dir, 'burst', `note-${String(i).padStart(3, '0')}.md`), article(`Note ${i}`, `Body ${i}.`))
      )
    )
    const report = await nextBatch(before)
    const pushes = reports.slice(before).filter((r) => r.status !== 'unstable')
    expect(pushes).toHaveLength(1)
    expect(report.batch.changes.length).toBeGreaterThanOrEqual(100)
    const notes = (await remoteTree(client, root)).filter((e) => e.titlePath.startsWith('burst / Note '))
    expect(notes).toHaveLength(100)
  }, 30_000)

  it('an invalid file is reported with its name, nothing is written, and watching goes on', async () => {
    const before = reports.length
    const errBefore = captured.err().length
    await writeFile(path.join(dir, 'broken.md'), '---\ntitle: [unclosed\n---\n\nBody.\n')
    const invalid = await nextBatch(before, 'invalid')
    expect(invalid.result?.plan.blocked).toBe(true)
    expect(captured.err().slice(errBefore)).toContain('broken.md')
    expect((await remoteTree(client, root)).some((e) => e.title === 'broken')).toBe(false)
    const fixed = reports.length
    await writeFile(path.join(dir, 'broken.md'), article('Fixed now', 'Body.'))
    await nextBatch(fixed)
    expect((await remoteTree(client, root)).map((e) => e.titlePath)).toContain('Fixed now')
  })
})

/**
 * A pull matches a body's files by their id, not by the host of their URL,
 * and fetches only the files the folder does not already hold. The real
 * local server over HTTP, its data in a file: a folder with images is
 * pushed, one line of its article is edited on the web, and the pull writes
 * that line alone and downloads nothing, whether the server came back on
 * the same port or on another one (the embedded knowledge base when its
 * port is taken).
 */
import {mkdir, readFile, readdir, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {embeddedTarget} from '../../src/local/index.js'
import {startServer} from '../../src/server/index.js'
import {push} from '../../src/sync/index.js'
import {pull} from '../../src/sync/pull/index.js'
import {temporaryFolders} from '../temp-folders.js'

const folders = temporaryFolders('pull-file-ids')
afterAll(() => folders.removeAll())

type Server = Awaited<ReturnType<typeof startServer>>

/** The smallest PNG, made distinct by `tag` after its end (a viewer ignores it; its hash differs). */
function png(tag: string): Buffer {
  const hex =
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a0ae0000000049454e44ae426082'
  return Buffer.concat([Buffer.from(hex, 'hex'), Buffer.from(tag)])
}

const images = ['one', 'two', 'three', 'four']
const gallery = `# Gallery\n\nThe first line.\n\n${images.map((name) => `![${name}](img/${name}.png)`).join('\n\n')}\n`

/** A folder of one article showing four images, and a second article showing one of them again. */
async function galleryFolder(): Promise<string> {
  const dir = await folders.make()
  await mkdir(path.join(dir, 'img'))
  for (const name of images) await writeFile(path.join(dir, 'img', `${name}.png`), png(name))
  await writeFile(path.join(dir, 'gallery.md'), gallery)
  await writeFile(path.join(dir, 'other.md'), '# Other\n\n![one again](img/one.png)\n')
  return dir
}

/** Runs `work` with a client of `server` (closed after). */
async function withClient<T>(server: Server, work: (client: KbClient) => Promise<T>): Promise<T> {
  const client = KbClient.fromEnv({
    KBSYNC_API_URL: server.apiUrl,
    KBSYNC_FILES_URL: server.filesUrl,
    KBSYNC_TOKEN: server.token
  })
  try {
    return await work(client)
  } finally {
    await client.close()
  }
}

/** The target of the folder's data file as served by `server` (the state's part survives a new port). */
function targetOf(server: Server) {
  return embeddedTarget('kb.json', [server.apiUrl, server.filesUrl])
}

/** Pushes `dir` to a server on `dataPath`, edits one line of the gallery on the web, and pulls from a server started again on `port`. */
async function editedAfterRestart(
  dir: string,
  port: (first: number) => number,
  change: (body: string) => string = (body) => body.replace('The first line.', 'The first line, edited on the web.'),
  before: () => Promise<void> = async () => undefined
) {
  const dataPath = path.join(await folders.make(), 'kb.json')
  const first = await startServer({dataPath, port: 0})
  const firstPort = Number(new URL(first.apiUrl).port)
  try {
    const pushed = await withClient(first, (client) => push({dir, client, target: targetOf(first)}))
    expect(pushed.status).toBe('ok')
  } finally {
    await first.close()
  }
  const second = await startServer({dataPath, port: port(firstPort)})
  try {
    const item = second.items().find((i) => i.title === 'Gallery')!
    second.webEdit(item.id, {body: change(item.body!)})
    await before()
    second.resetLog()
    const pulled = await withClient(second, (client) => pull({dir, client, target: targetOf(second)}))
    const counts = second.counts()
    // The next pull finds nothing to do.
    const again = await withClient(second, (client) => pull({dir, client, target: targetOf(second)}))
    expect(again.written).toEqual([])
    second.resetLog()
    // A push after it finds nothing to send.
    const pushed = await withClient(second, (client) => push({dir, client, target: targetOf(second)}))
    expect(pushed.status).toBe('ok')
    expect(second.counts().writes ?? 0).toBe(0)
    return {pulled, counts, moved: firstPort !== Number(new URL(second.apiUrl).port)}
  } finally {
    await second.close()
  }
}

describe('the files of a web-edited article', () => {
  it.each([
    ['on the same port', false],
    ['on another port (matched by id: nothing rewritten)', true]
  ])(
    'are not downloaded again when the folder holds them, the server back %s: the edit is the only change',
    async (_, another) => {
      const dir = await galleryFolder()
      const {pulled, counts, moved} = await editedAfterRestart(dir, (first) => (another ? 0 : first))
      expect(moved).toBe(another)
      expect(pulled.status).toBe('ok')
      expect(counts.download ?? 0).toBe(0)
      expect(pulled.written).toEqual(['gallery.md'])
      expect(await readFile(path.join(dir, 'gallery.md'), 'utf8')).toBe(
        gallery.replace('The first line.', 'The first line, edited on the web.')
      )
      expect(await readdir(dir)).not.toContain('_assets')
    }
  )

  it("a file the web edit shows once more is named where the author keeps it; one the folder lost is fetched from the server's port now", async () => {
    const dir = await galleryFolder()
    // The editor copies the first and the last image to the end of the article; the folder no longer holds the last.
    const again = (body: string) =>
      `${body.trimEnd()}\n\n${/!\[one\]\([^)]*\)/.exec(body)![0]}\n\n${/!\[four\]\([^)]*\)/.exec(body)![0]}\n`
    const {pulled, counts, moved} = await editedAfterRestart(
      dir,
      () => 0,
      again,
      () => rm(path.join(dir, 'img', 'four.png'))
    )
    expect(moved).toBe(true)
    expect(pulled.status).toBe('ok')
    expect(counts.download).toBe(1)
    expect(pulled.written.sort()).toEqual(['_assets/gallery/four.png', 'gallery.md'])
    // (The merge names the fetched copy where the file named the lost one too.)
    const mended = gallery.replace('img/four.png', '_assets/gallery/four.png')
    expect(await readFile(path.join(dir, 'gallery.md'), 'utf8')).toBe(
      `${mended}\n![one](img/one.png)\n\n![four](_assets/gallery/four.png)\n`
    )
    expect(await readFile(path.join(dir, '_assets', 'gallery', 'four.png'))).toEqual(png('four'))
  })
})

/**
 * The embedded knowledge base of a folder listens on one port from run to
 * run, as the platform's files keep one host: the sync state records the
 * URLs of the files push uploaded, and a pull compares the bodies' URLs with
 * them. On a new port each run, a web edit of an article with images came
 * back with every image rewritten as the URL of that run's server, the
 * article marked as missing its files, and each later pull downloaded them
 * again and wrote the article anew. Real CLI processes on one folder; the
 * web edit through the API of a server of its own on the data file. When
 * the port is taken, any free one serves.
 */
import {mkdir, readFile, writeFile} from 'node:fs/promises'
import {existsSync} from 'node:fs'
import {createServer} from 'node:net'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {onPreferredPort, preferredPort} from '../../src/cli/embedded/port.js'
import {startServer} from '../../src/server/index.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'
import {runCli} from './embedded-processes.js'

const folders = temporaryFolders('embedded-port')
afterAll(() => folders.removeAll())

/** The smallest PNG, made distinct by `tag` after its end (a viewer ignores it; its hash differs). */
function png(tag: string): Buffer {
  const hex =
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a0ae0000000049454e44ae426082'
  return Buffer.concat([Buffer.from(hex, 'hex'), Buffer.from(tag)])
}

/** Appends a paragraph to the body of the article titled `title`, as the web editor saves it. */
async function webEdit(dataPath: string, title: string, paragraph: string): Promise<void> {
  const server = await startServer({dataPath, port: 0})
  try {
    const item = server.items().find((i) => i.title === title)!
    const headers = {Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json'}
    const read = (await (await fetch(`${server.apiUrl}/knowledgebase/${item.id}`, {headers})).json()) as {body: string}
    // GET puts the title over the body; the editor saves the body alone.
    const body = `${read.body.replace(`# ${title}\n\n`, '').trimEnd()}\n\n${paragraph}`
    const put = await fetch(`${server.apiUrl}/knowledgebase/${item.id}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({body})
    })
    expect(put.status).toBe(200)
  } finally {
    await server.close()
  }
}

describe('the embedded knowledge base of a folder', () => {
  it('keeps its files at one URL: a web edit of an article with images pulls back as that edit alone', async () => {
    const dir = await folders.make()
    const text = '# Gallery\n\n![one](img/one.png)\n\n![two](img/two.png)\n'
    await writeFiles(dir, {'gallery.md': text, 'other.md': '# Other\n\n![one again](img/one.png)\n'})
    await mkdir(path.join(dir, 'img'))
    await writeFile(path.join(dir, 'img', 'one.png'), png('one'))
    await writeFile(path.join(dir, 'img', 'two.png'), png('two'))
    const pushed = await runCli(['push', '.'], dir)
    expect(pushed.code, pushed.err).toBe(0)

    await webEdit(path.join(dir, '.kbsync', 'local-kb.json'), 'Gallery', 'Edited on the web.')
    const pulled = await runCli(['pull', '.'], dir)
    expect(pulled.code, pulled.err).toBe(0)
    expect(await readFile(path.join(dir, 'gallery.md'), 'utf8')).toBe(`${text}\nEdited on the web.\n`)
    expect(existsSync(path.join(dir, '_assets'))).toBe(false)

    const again = await runCli(['pull', '.'], dir)
    expect(again.code, again.err).toBe(0)
    expect(again.out).toMatch(/Done: 0 files written/)
    const noop = await runCli(['push', '.'], dir)
    expect(noop.out).toMatch(/Done: 0 steps, 0 write requests/)
  }, 120_000)
})

describe('the port of an embedded knowledge base', () => {
  it('is the same for one data file, and any free one when that one is taken', async () => {
    const dataPath = path.join(await folders.make(), 'local-kb.json')
    expect(preferredPort(dataPath)).toBe(preferredPort(dataPath))
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(preferredPort(dataPath), '127.0.0.1', resolve))
    try {
      const server = await onPreferredPort(dataPath, (port) => startServer({dataPath, port}))
      expect(new URL(server.apiUrl).port).not.toBe(String(preferredPort(dataPath)))
      await server.close()
    } finally {
      await new Promise((resolve) => taken.close(resolve))
    }
  })
})

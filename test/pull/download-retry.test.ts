/** A file that could not be downloaded is tried again by the next pull, which then writes the body with its local path. */
import {mkdtemp, readdir, readFile, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {KbClient, NetworkError} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'
import {pull} from '../../src/sync/pull/index.js'

let server: Awaited<ReturnType<typeof startServer>>
let client: KbClient
let root: string
let dir: string

beforeAll(async () => {
  server = await startServer({port: 0})
  client = new KbClient({apiUrl: server.apiUrl, filesUrl: server.filesUrl, token: server.token})
  dir = await mkdtemp(path.join(tmpdir(), 'kbsync-download-'))
  await writeFile(path.join(dir, 'pic.png'), 'png bytes')
  const {guid} = await client.uploadFile(path.join(dir, 'pic.png'))
  await rm(path.join(dir, 'pic.png'))
  root = (await client.createItem({type: 'topic', title: 'Files', parent_topic_id: null})).id
  await client.createItem({type: 'article', title: 'Shown', parent_topic_id: root, body: `A picture: ![pic](${guid})`})
})

afterAll(async () => {
  await client?.close()
  await server?.close()
  await rm(dir, {recursive: true, force: true})
})

describe('pull downloading files', () => {
  it('keeps the URL and warns when a download fails, and the next pull downloads it', async () => {
    const failing = Object.create(client) as KbClient
    failing.downloadFile = async () => {
      throw new NetworkError('cut', {method: 'GET', path: '/services/kb', retryable: true})
    }
    const first = await pull({dir, client: failing, rootTopicId: root})
    expect(first.diagnostics.map((d) => d.rule)).toContain('download-failed')
    expect(await readFile(path.join(dir, 'Shown.md'), 'utf8')).toContain('/services/kb?Id=')

    const second = await pull({dir, client, rootTopicId: root})
    expect(second.status).toBe('ok')
    const text = await readFile(path.join(dir, 'Shown.md'), 'utf8')
    expect(text).toContain('](_assets/Shown/pic.png)')
    expect(await readdir(path.join(dir, '_assets', 'Shown'))).toEqual(['pic.png'])

    const stateBefore = await readFile(path.join(dir, '.kbsync', 'state.json'), 'utf8')
    const third = await pull({dir, client, rootTopicId: root})
    expect(third.written).toEqual([])
    // Nothing changed: the state file (which a team may commit) is not rewritten either.
    expect(await readFile(path.join(dir, '.kbsync', 'state.json'), 'utf8')).toBe(stateBefore)
  })
})

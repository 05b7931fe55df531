/**
 * `kbsync pull` end to end when the API lists an attachment on another
 * origin: the real local server behind a proxy that moves its file URLs to a
 * loopback listener which records whether it saw `Authorization`.
 */
import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'
import {snapshot} from '../pull/folder-snapshot.js'
import {cli} from '../e2e/push-helpers.js'
import {tinyServer, type Tiny} from './tiny-server.js'

type Server = Awaited<ReturnType<typeof startServer>>

let server: Server
let foreign: Tiny
let proxy: Tiny
let root = ''
const folders: string[] = []

beforeAll(async () => {
  server = await startServer({port: 0})
  foreign = await tinyServer((req, res) => void res.writeHead(200).end('foreign bytes'))
  // Forwards to the local server; its file URLs come back pointing at `foreign`.
  proxy = await tinyServer(async (req, res) => {
    const {authorization, 'content-type': contentType} = req.headers
    const headers = {...(authorization ? {authorization} : {}), ...(contentType ? {'content-type': contentType} : {})}
    const answer = await request(server.filesUrl + req.url, {
      method: req.method as 'GET',
      headers,
      body: req.body.length ? req.body : undefined
    })
    const text = (await answer.body.text()).split(server.filesUrl).join(foreign.url)
    res
      .writeHead(answer.statusCode, {'content-type': String(answer.headers['content-type'] ?? 'application/json')})
      .end(text)
  })
  const client = new KbClient({apiUrl: server.apiUrl, filesUrl: server.filesUrl, token: server.token})
  try {
    root = (await client.createItem({type: 'topic', title: 'Foreign files', parent_topic_id: null, body: 'Topic.'})).id
    // The foreign host serves the bytes the record lists (a download is checked against the record's size).
    const source = await mkdtemp(path.join(tmpdir(), 'kbsync-foreign-'))
    folders.push(source)
    await writeFile(path.join(source, 'logo.png'), 'foreign bytes')
    const guid = (await client.uploadFile(path.join(source, 'logo.png'))).guid
    await client.createItem({
      type: 'article',
      title: 'With logo',
      parent_topic_id: root,
      body: `Look:\n\n![Logo](${guid})`
    })
  } finally {
    await client.close()
  }
})

afterAll(async () => {
  await proxy?.close()
  await foreign?.close()
  await server?.close()
  for (const dir of folders) await rm(dir, {recursive: true, force: true})
})

async function pull(extra: NodeJS.ProcessEnv) {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-pull-foreign-'))
  folders.push(dir)
  const run = await cli(['pull', dir, '--root-topic', root], {
    KBSYNC_API_URL: `${proxy.url}/v4`,
    KBSYNC_TOKEN: server.token,
    ...extra
  })
  return {run, dir}
}

describe('kbsync pull and an attachment on another origin', () => {
  it('skips it by default with a warning that says how to fetch it, sending it nothing', async () => {
    const {run, dir} = await pull({})
    expect(foreign.seen).toEqual([])
    expect(run.code).toBe(0)
    expect(run.err).toMatch(/Could not download .*foreignDownloads/)
    // A signed link keeps its signature in the query: the warning shows origin and path only.
    expect(run.err).not.toMatch(/Could not download \S*\?/)
    expect(run.out + run.err).not.toContain(server.token)
    const files = await snapshot(dir)
    expect(Object.keys(files).some((f) => f.includes('_assets'))).toBe(false)
  })

  it('fetches it without the token with KBSYNC_FOREIGN_DOWNLOADS=anonymous', async () => {
    const {run, dir} = await pull({KBSYNC_FOREIGN_DOWNLOADS: 'anonymous'})
    expect(run.code).toBe(0)
    expect(foreign.seen.map((s) => s.headers.authorization)).toEqual([undefined])
    expect(await readFile(path.join(dir, '_assets/With logo/logo.png'), 'utf8')).toBe('foreign bytes')
  })

  it('rejects any other value of KBSYNC_FOREIGN_DOWNLOADS, naming it', async () => {
    const {run} = await pull({KBSYNC_FOREIGN_DOWNLOADS: 'sometimes'})
    expect(run.code).not.toBe(0)
    expect(run.err).toMatch(/KBSYNC_FOREIGN_DOWNLOADS must be one of "refuse", "anonymous", not "sometimes"/)
  })
})

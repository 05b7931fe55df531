/**
 * Persistence as snapshot + log: a small write appends a small record and
 * leaves the snapshot alone; a kill leaves a store that loads, with no
 * temporary files once it has started again.
 */
import {builtCli} from '../built.js'
import {spawn} from 'node:child_process'
import {appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {mkdir} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {startServer} from '../../src/server/index.js'
import {serversPerTest} from './helpers.js'

const startServed = serversPerTest({seed: 9})
const start = (dataPath: string) => startServed({dataPath})

const freshPath = () => join(mkdtempSync(join(tmpdir(), 'kbsync-log-')), 'kb.json')
const size = (path: string) => (existsSync(path) ? statSync(path).size : 0)

describe('local server: the store log', () => {
  it('writes a small change after a huge article as a small record, without rewriting the snapshot', async () => {
    const dataPath = freshPath()
    const {call} = await start(dataPath)
    const huge = (await call('POST', '/knowledgebase', {title: 'Huge', body: 'x'.repeat(4 * 1048576)})).json
    // However the huge article got there, a later small write must cost what it writes.
    const snapshot = readFileSync(dataPath)
    const logBefore = size(`${dataPath}.log`)
    const small = await call('POST', '/knowledgebase', {title: 'Small', body: 'A few words.'})
    expect(small.status).toBe(200)
    const moved = await call('PUT', `/knowledgebase/${huge.id}`, {title: 'Huge, renamed'})
    expect(moved.status).toBe(200)
    expect(readFileSync(dataPath).equals(snapshot)).toBe(true)
    // Two records: the new item, and the renamed one without its unchanged body.
    const grown = size(`${dataPath}.log`) - logBefore
    expect(grown).toBeGreaterThan(0)
    expect(grown).toBeLessThan(4096)
    const lines = readFileSync(`${dataPath}.log`, 'utf8')
      .trim()
      .split('\n')
      .slice(-2)
      .map((line) => JSON.parse(line))
    expect(lines.map((record) => record.item.title)).toEqual(['Small', 'Huge, renamed'])
  })

  it('folds the log into the snapshot on close and loads the same store again', async () => {
    const dataPath = freshPath()
    const first = await start(dataPath)
    const topic = (await first.call('POST', '/knowledgebase', {type: 'topic', title: 'T'})).json
    const a = (await first.call('POST', '/knowledgebase', {title: 'A', body: 'x', parent_topic_id: topic.id})).json
    await first.call('POST', '/knowledgebase', {title: 'B', body: 'y', parent_topic_id: topic.id})
    await first.call('DELETE', `/knowledgebase/${a.id}`)
    const items = first.server.items()
    await first.server.close()
    expect(size(`${dataPath}.log`)).toBe(0)
    expect(JSON.parse(readFileSync(dataPath, 'utf8')).items.map((item: {title: string}) => item.title)).toEqual([
      'T',
      'B'
    ])
    const second = await start(dataPath)
    expect(second.server.items()).toEqual(items)
  })

  it('drops a record cut short by a kill and names the line of a damaged one', async () => {
    const dataPath = freshPath()
    const first = await start(dataPath)
    await first.call('POST', '/knowledgebase', {title: 'Kept', body: 'x'})
    // Not closed: the log still holds the record, as after a kill. Then a record cut short.
    appendFileSync(`${dataPath}.log`, '{"item": {"id": "TORN", "title": "Half')
    const second = await start(dataPath)
    expect(second.server.items().map((item) => item.title)).toEqual(['Kept'])
    await second.call('POST', '/knowledgebase', {title: 'After', body: 'y'})
    await second.server.close()
    await first.server.close()
    writeFileSync(`${dataPath}.log`, '{"item": 5}\n')
    await expect(startServer({dataPath})).rejects.toThrow(
      `${dataPath}.log:1: not a data file of the local knowledge base`
    )
  })

  it('removes the temporary files a killed server left, in the data folder and among the files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kbsync-log-'))
    const dataPath = join(dir, 'kb.json')
    await mkdir(`${dataPath}.files`)
    const stale = [
      `${dataPath}.tmp`,
      `${dataPath}.4242.tmp`,
      join(`${dataPath}.files`, '0b0d6a3e-5a53-4f8e-9b7a-2f6d5f4f0c11.tmp')
    ]
    for (const path of stale) writeFileSync(path, '{"torn')
    writeFileSync(join(dir, 'other.json.tmp'), 'not ours')
    await start(dataPath)
    for (const path of stale) expect(existsSync(path)).toBe(false)
    expect(existsSync(join(dir, 'other.json.tmp'))).toBe(true)
  })

  it('loads after a server is killed in the middle of an upload, with no temporary file left once started again', async () => {
    const dataPath = freshPath()
    const child = spawn(process.execPath, [builtCli, 'serve', '--data', dataPath], {stdio: ['ignore', 'pipe', 'pipe']})
    let out = ''
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += String(d)
        const match = /at (http:\/\/127\.0\.0\.1:\d+)\/v4/.exec(out)
        if (match) resolve(match[1]!)
      })
      child.once('exit', () => reject(new Error(out)))
    })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    const boundary = '----kbsynckill'
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n`
    const {request} = await import('node:http')
    const upload = request(`${url}/v4/files/upload`, {
      method: 'POST',
      headers: {authorization: 'Bearer kbsync-local-token', 'content-type': `multipart/form-data; boundary=${boundary}`}
    })
    upload.on('error', () => undefined)
    upload.write(head)
    upload.write(Buffer.alloc(2 * 1048576, 1))
    const files = `${dataPath}.files`
    const deadline = Date.now() + 10_000
    while (!(existsSync(files) && readdirSync(files).some((name) => name.endsWith('.tmp')))) {
      if (Date.now() > deadline) throw new Error('the upload never reached the disk')
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    child.kill('SIGKILL')
    await exited
    upload.destroy()
    expect(readdirSync(files).some((name) => name.endsWith('.tmp'))).toBe(true)
    const {server} = await start(dataPath)
    expect(server.items()).toEqual([])
    expect(readdirSync(files)).toEqual([])
    expect(readdirSync(join(dataPath, '..')).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })
})

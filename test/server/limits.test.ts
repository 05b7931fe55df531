/**
 * Request size limits of the local server: 413 from the declared length up
 * front and while streaming, and uploads streamed to disk rather than held
 * in memory.
 */
import {mkdtempSync, readdirSync, statSync} from 'node:fs'
import {request} from 'node:http'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import type {ServerOptions} from '../../src/server/index.js'
import {serversPerTest} from './helpers.js'

const startServed = serversPerTest({seed: 3})
const start = async (options: ServerOptions = {}) => (await startServed(options)).server

const MiB = 1048576

/**
 * Streams `total` bytes (in 1 MiB chunks, as `head` + filler + `tail`) to
 * `url` without a Content-Length, stopping when the answer arrives; resolves
 * to the answer and how many bytes went out before it. Halfway, sending
 * waits for `halfway` when given.
 */
function streamUpload(
  url: string,
  headers: Record<string, string>,
  head: string,
  total: number,
  tail: string,
  halfway?: () => Promise<void>
) {
  return new Promise<{status: number; json: {error_code?: string; guid?: string}; sent: number}>((resolve, reject) => {
    let sent = 0
    let answered = false
    const req = request(url, {method: 'POST', headers}, (res) => {
      answered = true
      let text = ''
      res.on('data', (d) => (text += String(d)))
      res.on('end', () => resolve({status: res.statusCode!, json: JSON.parse(text || '{}'), sent}))
    })
    req.on('error', (error) => {
      if (!answered) reject(error)
    })
    const chunk = Buffer.alloc(MiB, 0x61)
    const pump = () => {
      if (sent === 0) {
        req.write(head)
        sent += head.length
      }
      while (!answered && !req.destroyed && sent < total) {
        if (halfway && sent >= total / 2) {
          const wait = halfway
          halfway = undefined
          return void wait().then(pump, reject)
        }
        sent += chunk.length
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
      if (!answered && !req.destroyed) req.end(tail)
    }
    pump()
  })
}

function multipart(name: string) {
  const boundary = '----kbsynclimits'
  return {
    headers: {'content-type': `multipart/form-data; boundary=${boundary}`},
    head: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    tail: `\r\n--${boundary}--\r\n`
  }
}

describe('local server: request size limits', () => {
  it('answers 413 to a JSON body past the limit, from its Content-Length and when it comes chunked', async () => {
    const server = await start({limits: {jsonBytes: 4096}})
    const headers = {authorization: `Bearer ${server.token}`, 'content-type': 'application/json'}
    const big = JSON.stringify({title: 'Big', body: 'x'.repeat(8192)})
    const declared = await fetch(`${server.apiUrl}/knowledgebase`, {method: 'POST', headers, body: big})
    expect([declared.status, ((await declared.json()) as {error_code: string}).error_code]).toEqual([
      413,
      'request_too_large'
    ])
    const chunked = await fetch(`${server.apiUrl}/knowledgebase`, {
      method: 'POST',
      headers,
      body: new Blob([big]).stream(),
      duplex: 'half'
    } as RequestInit)
    expect(chunked.status).toBe(413)
    expect(server.items()).toEqual([])
    const small = await fetch(`${server.apiUrl}/knowledgebase`, {
      method: 'POST',
      headers,
      body: JSON.stringify({title: 'Small', body: 'x'})
    })
    expect(small.status).toBe(200)
  })

  it('answers 413 too_large_file to an upload past the limit and stops reading it', async () => {
    const server = await start({limits: {fileBytes: 4 * MiB}})
    const {headers, head, tail} = multipart('huge.bin')
    const answer = await streamUpload(
      `${server.filesUrl}/v4/files/upload`,
      {...headers, authorization: `Bearer ${server.token}`},
      head,
      512 * MiB,
      tail
    )
    expect([answer.status, answer.json.error_code]).toEqual([413, 'too_large_file'])
    // Refused after a few MiB, not after the 512 MiB the client meant to send.
    expect(answer.sent).toBeLessThan(64 * MiB)
    // Refused from the Content-Length alone, before the rest (never sent here) arrives.
    const declared = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.filesUrl}/v4/files/upload`, {
        method: 'POST',
        headers: {...headers, authorization: `Bearer ${server.token}`, 'content-length': String(5 * MiB)}
      })
      req.on('response', (res) => resolve(res.statusCode!))
      req.on('error', reject)
      req.write(head)
    })
    expect(declared).toBe(413)
  })

  it('streams an upload to a file on disk while it arrives, without holding it in memory', async () => {
    const dataPath = join(mkdtempSync(join(tmpdir(), 'kbsync-limits-')), 'kb.json')
    const server = await start({dataPath})
    const {headers, head, tail} = multipart('big.bin')
    const size = 64 * MiB
    const before = process.memoryUsage().arrayBuffers
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 2)
    const files = `${dataPath}.files`
    // Halfway through, the first half is already on disk (a buffering server would have written nothing yet).
    const onDisk = async () => {
      const deadline = Date.now() + 10_000
      const written = () =>
        readdirSync(files)
          .filter((name) => name.endsWith('.tmp'))
          .reduce((sum, name) => sum + statSync(join(files, name)).size, 0)
      while (written() < size / 4) {
        if (Date.now() > deadline) throw new Error(`only ${written()} bytes on disk halfway through the upload`)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    }
    const answer = await streamUpload(
      `${server.filesUrl}/v4/files/upload`,
      {...headers, authorization: `Bearer ${server.token}`},
      head,
      size,
      tail,
      onDisk
    )
    clearInterval(sampler)
    expect(answer.status).toBe(200)
    expect(statSync(join(files, answer.json.guid!)).size).toBe(size)
    expect(readdirSync(files).filter((name) => name.endsWith('.tmp'))).toEqual([])
    // What is left is garbage the collector has not taken yet (it waits for tens of MiB); buffering adds the whole file, three times over.
    expect(peak - before).toBeLessThan(size)
  })
})

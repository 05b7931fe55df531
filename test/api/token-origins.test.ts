/**
 * The bearer token goes only to the API and files services the configuration
 * or the login named: never to an origin an attachment URL, a redirect or a
 * `..` path leads to. Real client, real loopback listeners that record
 * whether they saw `Authorization`.
 */
import {readdir, readFile} from 'node:fs/promises'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {KbClient, type ClientOptions} from '../../src/api/index.js'
import {useTinyServers} from './harness.js'
import {json, type Tiny} from './tiny-server.js'

const TOKEN = 'tok-ORIGINS-0123456789'
const tiny = useTinyServers('kbsync-api-origins-')
const serve = tiny.serve

/** A listener on another loopback port that answers every request with `bytes`. */
function recorder(bytes = 'foreign bytes'): Promise<Tiny> {
  return serve((req, res) => {
    res.writeHead(200)
    res.end(bytes)
  })
}

function client(options: ClientOptions): KbClient {
  return tiny.track(new KbClient({token: TOKEN, retryBaseMs: 5, retries: 2, ...options}))
}

const sawToken = (server: Tiny): boolean[] => server.seen.map((s) => s.headers.authorization !== undefined)
const leftovers = async (): Promise<string[]> => (await readdir(tiny.dir)).filter((f) => f.endsWith('.part'))

describe('attachment URLs on another origin', () => {
  it('an attachment the API lists elsewhere gets no token: refused by default, fetched without it with foreignDownloads "anonymous"', async () => {
    const foreign = await recorder()
    const api = await serve((req, res) =>
      json(res, 200, {
        id: 'A1',
        title: 'A',
        type: 'article',
        body: 'b',
        version: 1,
        attachments: [{id: 'g1', name: 'a.png', size: 13, url: `${foreign.url}/services/kb?Id=g1`}]
      })
    )
    const safe = client({apiUrl: `${api.url}/v4`})
    const url = (await safe.getItem('A1')).attachments![0]!.url
    const refused = await safe.downloadFile(url, path.join(tiny.dir, 'refused.png')).catch((error: Error) => error)
    expect(refused).toMatchObject({errorCode: 'download_refused', retryable: false})
    expect((refused as Error).message).toContain(foreign.url)
    expect((refused as Error).message).toContain('foreignDownloads')
    expect((refused as Error).message).not.toContain(TOKEN)
    expect(foreign.seen).toEqual([])

    const open = client({apiUrl: `${api.url}/v4`, foreignDownloads: 'anonymous'})
    await open.getItem('A1')
    expect(await open.downloadFile(url, path.join(tiny.dir, 'anonymous.png'))).toEqual({bytes: 13})
    expect(await readFile(path.join(tiny.dir, 'anonymous.png'), 'utf8')).toBe('foreign bytes')
    expect(sawToken(foreign)).toEqual([false])
    expect(sawToken(api)).toEqual([true, true])
    expect(await leftovers()).toEqual([])
  })

  it('the files origin is the configured one, or the one the login answered', async () => {
    const files = await recorder('file bytes')
    const accounts = await serve((req, res) =>
      json(res, 200, {access_token: TOKEN, api_url: `${accounts.url}/v4/`, files_url: `${files.url}/`})
    )
    // The login answer's files origin is accepted because the caller trusts it (else refused: test/security/config-trust.test.ts).
    const loggedIn = client({
      apiUrl: `${accounts.url}/v4`,
      trustedOrigins: [files.url],
      token: undefined,
      login: 'bot',
      securityKey: 'key-ORIGINS-abcdef'
    })
    await loggedIn.downloadFile(`${files.url}/services/kb?Id=g1`, path.join(tiny.dir, 'login.png'))
    const configured = client({apiUrl: 'http://127.0.0.1:9/v4', filesUrl: `${files.url}/`})
    await configured.downloadFile(`${files.url}/services/kb?Id=g2`, path.join(tiny.dir, 'configured.png'))
    expect(sawToken(files)).toEqual([true, true])
    expect(files.seen.map((s) => s.headers.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`])
  })

  it('another host name of the same address is another origin', async () => {
    const api = await recorder()
    const port = new URL(api.url).port
    const c = client({apiUrl: `${api.url}/v4`})
    await expect(
      c.downloadFile(`http://localhost:${port}/services/kb?Id=g1`, path.join(tiny.dir, 'localhost.png'))
    ).rejects.toMatchObject({errorCode: 'download_refused'})
    expect(api.seen).toEqual([])
  })
})

describe('redirects', () => {
  it('are followed with the token inside the files service, and not with it to another origin (refused by default, anonymous on request)', async () => {
    const foreign = await serve((req, res) => {
      if (req.url === '/back') {
        res.writeHead(302, {location: `${files.url}/real/a`})
        return void res.end()
      }
      res.writeHead(200)
      res.end('cdn bytes')
    })
    const files: Tiny = await serve((req, res) => {
      if (req.url === '/services/kb?Id=a') res.writeHead(302, {location: '/real/a'}).end()
      else if (req.url === '/services/kb?Id=b') res.writeHead(307, {location: `${foreign.url}/b?sig=1`}).end()
      else if (req.url === '/services/kb?Id=c') res.writeHead(302, {location: `${foreign.url}/back`}).end()
      else res.writeHead(200).end('own bytes')
    })
    const safe = client({apiUrl: 'http://127.0.0.1:9/v4', filesUrl: files.url})
    expect(await safe.downloadFile(`${files.url}/services/kb?Id=a`, path.join(tiny.dir, 'a.bin'))).toEqual({bytes: 9})
    expect(await readFile(path.join(tiny.dir, 'a.bin'), 'utf8')).toBe('own bytes')
    expect(files.seen.map((s) => [s.url, s.headers.authorization])).toEqual([
      ['/services/kb?Id=a', `Bearer ${TOKEN}`],
      ['/real/a', `Bearer ${TOKEN}`]
    ])
    await expect(
      safe.downloadFile(`${files.url}/services/kb?Id=b`, path.join(tiny.dir, 'b.bin'))
    ).rejects.toMatchObject({errorCode: 'download_refused'})
    expect(foreign.seen).toEqual([])
    expect(await readdir(tiny.dir)).not.toContain('b.bin')

    const open = client({apiUrl: 'http://127.0.0.1:9/v4', filesUrl: files.url, foreignDownloads: 'anonymous'})
    await open.downloadFile(`${files.url}/services/kb?Id=b`, path.join(tiny.dir, 'b.bin'))
    expect(await readFile(path.join(tiny.dir, 'b.bin'), 'utf8')).toBe('cdn bytes')
    // Once a chain has left the trusted services, coming back does not earn the token again.
    await open.downloadFile(`${files.url}/services/kb?Id=c`, path.join(tiny.dir, 'c.bin'))
    expect(foreign.seen.map((s) => [s.url, s.headers.authorization])).toEqual([
      ['/b?sig=1', undefined],
      ['/back', undefined]
    ])
    expect(files.seen.slice(-1).map((s) => [s.url, s.headers.authorization])).toEqual([['/real/a', undefined]])
    expect(await leftovers()).toEqual([])
  })

  it("keep the query of a URL outside the token's services (a signed link) out of events and messages", async () => {
    const foreign = await serve((req, res) => json(res, 403, {error: 'expired'}))
    const files = await serve(
      (req, res) => void res.writeHead(302, {location: `${foreign.url}/bucket/a.png?X-Signature=sig-SECRET-0123`}).end()
    )
    const events: string[] = []
    const open = client({
      apiUrl: 'http://127.0.0.1:9/v4',
      filesUrl: files.url,
      foreignDownloads: 'anonymous',
      onEvent: (event) => events.push(JSON.stringify(event))
    })
    const error = (await open
      .downloadFile(`${files.url}/services/kb?Id=a`, path.join(tiny.dir, 'signed.png'))
      .catch((e: Error) => e)) as Error & {path: string}
    expect(foreign.seen.map((s) => s.url)).toEqual(['/bucket/a.png?X-Signature=sig-SECRET-0123'])
    expect(error).toMatchObject({status: 403, path: '/bucket/a.png'})
    expect(JSON.stringify(error) + error.message + events.join('\n')).not.toContain('sig-SECRET')
    // Our own files service's query (a file id) is still shown.
    expect(events.some((event) => event.includes('/services/kb?Id=a'))).toBe(true)
  })

  it('stops after a few hops', async () => {
    const files = await serve((req, res) => void res.writeHead(302, {location: '/services/kb?Id=again'}).end())
    const c = client({apiUrl: 'http://127.0.0.1:9/v4', filesUrl: files.url})
    await expect(
      c.downloadFile(`${files.url}/services/kb?Id=loop`, path.join(tiny.dir, 'loop.bin'))
    ).rejects.toMatchObject({errorCode: 'too_many_redirects'})
    expect(files.seen.length).toBeLessThanOrEqual(11)
    expect(await leftovers()).toEqual([])
  })
})

describe('paths on the API origin', () => {
  it('a `..` or an encoded separator that leaves the file routes reaches no other API route with the token', async () => {
    // API and files on one origin, as the local server and on-premise installs serve them.
    const host = await serve((req, res) => {
      res.writeHead(200)
      res.end('{"members":[]}')
    })
    const safe = client({apiUrl: `${host.url}/v4`, filesUrl: host.url})
    await safe.downloadFile(`${host.url}/services/kb?Id=g1`, path.join(tiny.dir, 'own.png'))
    await safe.downloadFile(`${host.url}/v4/files/download/g2`, path.join(tiny.dir, 'api-file.png'))
    expect(sawToken(host)).toEqual([true, true])
    for (const escape of [
      `${host.url}/services/kb/../../v4/members`,
      `${host.url}/v4/files/../members`,
      `${host.url}/v4/files/%2e%2e/members`,
      `${host.url}/v4/files/..%2Fmembers`,
      `${host.url}/v4/files/..%5cmembers`
    ]) {
      await expect(safe.downloadFile(escape, path.join(tiny.dir, 'members.png'))).rejects.toMatchObject({
        errorCode: 'download_refused'
      })
    }
    expect(host.seen).toHaveLength(2)

    const open = client({apiUrl: `${host.url}/v4`, filesUrl: host.url, foreignDownloads: 'anonymous'})
    await open.downloadFile(`${host.url}/services/kb/../../v4/members`, path.join(tiny.dir, 'members.json'))
    expect(host.seen.slice(2).map((s) => [s.url, s.headers.authorization])).toEqual([['/v4/members', undefined]])
  })

  it('without a files URL, the API host serves files at /services/kb with the token', async () => {
    const host = await recorder()
    const c = client({apiUrl: `${host.url}/v4`})
    await c.downloadFile(`${host.url}/services/kb?Id=g1`, path.join(tiny.dir, 'plain.png'))
    await c.downloadFile('/services/kb?Id=g2', path.join(tiny.dir, 'relative.png'))
    expect(host.seen.map((s) => [s.url, s.headers.authorization])).toEqual([
      ['/services/kb?Id=g1', `Bearer ${TOKEN}`],
      ['/services/kb?Id=g2', `Bearer ${TOKEN}`]
    ])
  })

  it('never fetches a URL of another scheme or one with credentials in it, whatever the option', async () => {
    const host = await recorder()
    const open = client({apiUrl: `${host.url}/v4`, foreignDownloads: 'anonymous'})
    for (const url of ['file:///etc/passwd', `http://user:pass@${new URL(host.url).host}/services/kb?Id=g1`]) {
      await expect(open.downloadFile(url, path.join(tiny.dir, 'odd.bin'))).rejects.toMatchObject({
        errorCode: 'download_refused'
      })
    }
    expect(host.seen).toEqual([])
  })
})

describe('options', () => {
  it('foreignDownloads must be "anonymous" or "refuse"', () => {
    expect(() => new KbClient({token: TOKEN, foreignDownloads: 'always' as never})).toThrow(/foreignDownloads/)
  })
})

/**
 * The link checker against a local HTTP server: what each kind of answer
 * becomes, the gates (concurrency, per host) as the server counts them, and
 * the cache (hits, expiry with an injected clock, broken links re-checked).
 */
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {checkLinks, linkCacheFile, type LinkCheckOptions, type LinkUse} from '../../src/links/index.js'
import {tinyServer, type Tiny} from '../api/tiny-server.js'
import {temporaryFolders} from '../temp-folders.js'
import {linkSite} from './sites.js'

const folders = temporaryFolders('links')
const servers: Tiny[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})
afterAll(() => folders.removeAll())

async function site(options?: Parameters<typeof linkSite>[0]): Promise<Tiny> {
  const started = await linkSite(options)
  servers.push(started)
  return started
}

/** Uses of `urls`, one per line of `doc.md`. */
function usesOf(urls: string[], file = 'doc.md'): LinkUse[] {
  return urls.map((url, index) => ({url, file, line: index + 1, column: 1, kind: 'link'}))
}

/** Waits asked for, instantly (the checker's sleep). */
function recordedSleep(): {sleep: (ms: number) => Promise<void>; waits: number[]} {
  const waits: number[] = []
  return {waits, sleep: async (ms) => void waits.push(ms)}
}

async function check(urls: string[], options: LinkCheckOptions = {}) {
  const dir = await folders.make()
  // The sites are on 127.0.0.1: loopback is allowed here (test/security/link-checker.test.ts holds the refusals).
  return checkLinks(usesOf(urls), dir, {noCache: true, allowPrivate: true, sleep: recordedSleep().sleep, ...options})
}

describe('answers', () => {
  it('a 200 is OK and a 404 is broken, reported at its file:line with the status', async () => {
    const server = await site()
    const settled: Array<[string, number, number]> = []
    const result = await check([`${server.url}/ok`, `${server.url}/missing`], {
      onChecked: (url, outcome, done, total) => settled.push([`${url} ${outcome.status}`, done, total])
    })
    expect(result.links.map((l) => l.outcome.status)).toEqual(['ok', 'broken'])
    // Each URL is announced once as it settles, counting up to the total (for the progress bar and --verbose).
    expect(settled.map(([, done, total]) => `${done}/${total}`)).toEqual(['1/2', '2/2'])
    expect(settled.map(([what]) => what).sort()).toEqual([`${server.url}/missing broken`, `${server.url}/ok ok`])
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        file: 'doc.md',
        line: 2,
        rule: 'link-broken-external',
        message: expect.stringContaining('404 Not Found')
      })
    ])
    // HEAD is enough when it is answered: no page is downloaded.
    expect(server.seen.map((s) => s.method)).toEqual(['HEAD', 'HEAD'])
  })

  it('--warn makes a broken link a warning', async () => {
    const server = await site()
    const result = await check([`${server.url}/missing`], {warn: true})
    expect(result.diagnostics.map((d) => d.severity)).toEqual(['warning'])
  })

  it('a permanent redirect to an OK page is OK, noted as an info naming the new URL; a redirect to a 404 is broken', async () => {
    const server = await site()
    const result = await check([`${server.url}/moved`, `${server.url}/moved-to-missing`])
    expect(result.links.map((l) => l.outcome.status)).toEqual(['ok', 'broken'])
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'info',
        line: 1,
        rule: 'link-redirected',
        message: expect.stringContaining(`\`${server.url}/ok\``)
      }),
      expect.objectContaining({severity: 'error', line: 2, rule: 'link-broken-external'})
    ])
  })

  it('redirects are followed only so far', async () => {
    const server = await site()
    const result = await check([`${server.url}/loop`], {maxRedirects: 3})
    expect(result.links[0]!.outcome).toMatchObject({status: 'broken', reason: 'more than 3 redirects'})
    expect(server.seen).toHaveLength(4)
  })

  it('a server that refuses HEAD (405) or drops it is asked again with GET', async () => {
    const server = await site()
    const result = await check([`${server.url}/no-head`, `${server.url}/reset-head`], {concurrency: 1})
    expect(result.links.map((l) => l.outcome.status)).toEqual(['ok', 'ok'])
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'HEAD /no-head',
      'GET /no-head',
      'HEAD /reset-head',
      'GET /reset-head'
    ])
  })

  it('a route slower than the time-out is broken, saying so, and not retried (another try would cost a time-out again)', async () => {
    const server = await site({slowMs: 3_000})
    const started = Date.now()
    const result = await check([`${server.url}/slow`], {timeoutMs: 200, retries: 1})
    expect(result.links[0]!.outcome).toMatchObject({status: 'broken', reason: 'timed out after 0.2 s'})
    expect(server.seen.map((s) => s.method)).toEqual(['HEAD'])
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('a 503 is retried after a backoff wait', async () => {
    const server = await site()
    const {sleep, waits} = recordedSleep()
    const result = await check([`${server.url}/busy-once`], {sleep, backoffMs: 100})
    expect(result.links[0]!.outcome.status).toBe('ok')
    expect(server.seen).toHaveLength(2)
    expect(waits).toHaveLength(1)
    expect(waits[0]).toBeLessThanOrEqual(100)
  })

  it.each([
    ['a 503', '/unavailable-once', 1_000],
    ['a 429', '/limited-once', 2_000]
  ])('%s with Retry-After waits as it says, then checks again', async (_what, route, wait) => {
    const server = await site()
    const {sleep, waits} = recordedSleep()
    const result = await check([`${server.url}${route}`], {sleep})
    expect(result.links[0]!.outcome.status).toBe('ok')
    expect(waits).toEqual([wait])
  })

  it('a 429 asking to wait beyond the cap (an HTTP date an hour away) is unchecked, a warning, at once', async () => {
    const server = await site()
    const {sleep, waits} = recordedSleep()
    const result = await check([`${server.url}/limited-long`], {sleep})
    expect(result.links[0]!.outcome).toMatchObject({status: 'unchecked', httpStatus: 429})
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        rule: 'link-unchecked',
        message: expect.stringMatching(/more than the 60 s allowed/)
      })
    ])
    expect(waits).toEqual([])
    expect(server.seen).toHaveLength(1)
  })

  it('a 429 that never ends is unchecked after the retries, never broken', async () => {
    const server = await site()
    const {sleep, waits} = recordedSleep()
    const result = await check([`${server.url}/limited`], {sleep, retries: 2})
    expect(result.links[0]!.outcome.status).toBe('unchecked')
    expect(waits).toEqual([3_000, 3_000])
    expect(result.counts).toMatchObject({broken: 0, unchecked: 1})
  })

  it('a connection refused is broken', async () => {
    const server = await site()
    const url = server.url
    await server.close()
    servers.splice(0)
    const result = await check([`${url}/ok`], {retries: 0})
    expect(result.links[0]!.outcome).toMatchObject({status: 'broken', reason: expect.stringContaining('ECONNREFUSED')})
  })
})

describe('anchors', () => {
  it('a fragment must name an id or <a name> of the page (GitHub user-content- ids count); the page is fetched once', async () => {
    const server = await site()
    const urls = ['install', 'legacy', 'usage', 'nowhere', 'L10', 'kb/article/1'].map((f) => `${server.url}/page#${f}`)
    const result = await check(urls)
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /page'])
    expect(result.links[0]!.outcome.missingAnchors).toEqual(['nowhere'])
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        line: 4,
        rule: 'link-anchor-missing',
        message: expect.stringContaining('`#nowhere`')
      })
    ])
  })
})

describe('one request per URL', () => {
  it('a URL used in many places is requested once and reported at each place', async () => {
    const server = await site()
    const url = `${server.url}/missing`
    const uses: LinkUse[] = [
      {url, file: 'a.md', line: 3, kind: 'link'},
      {url, file: 'b.md', line: 7, kind: 'image'},
      {url: `${url}#top`, file: 'b.md', line: 9, kind: 'link'}
    ]
    const result = await checkLinks(uses, await folders.make(), {noCache: true, allowPrivate: true})
    expect(server.seen).toHaveLength(1)
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}`)).toEqual(['a.md:3', 'b.md:7', 'b.md:9'])
    expect(result.diagnostics[1]!.message).toMatch(/^Image /)
  })

  it('excluded URLs are not requested', async () => {
    const server = await site()
    const result = await check([`${server.url}/missing`, `${server.url}/ok/1`], {exclude: [`${server.url}/miss`]})
    expect(server.seen.map((s) => s.url)).toEqual(['/ok/1'])
    expect(result.counts).toMatchObject({urls: 1, excluded: 1, broken: 0})
  })
})

describe('gates', () => {
  it('at most perHost requests reach one host at once', async () => {
    const server = await site({delayMs: 40})
    const urls = Array.from({length: 12}, (_, i) => `${server.url}/ok/${i}`)
    const result = await check(urls, {concurrency: 8, perHost: 2})
    expect(result.counts.ok).toBe(12)
    expect(server.maxInFlight()).toBe(2)
  })

  it('at most concurrency requests are in flight over all hosts', async () => {
    let inFlight = 0
    let most = 0
    const slow = async () => {
      const host = await tinyServer(async (_req, res) => {
        most = Math.max(most, ++inFlight)
        await new Promise((resolve) => setTimeout(resolve, 40))
        inFlight--
        res.writeHead(200).end()
      })
      servers.push(host)
      return host
    }
    const hosts = await Promise.all([slow(), slow(), slow(), slow()])
    const urls = hosts.flatMap((host) => Array.from({length: 6}, (_, i) => `${host.url}/ok/${i}`))
    const result = await check(urls, {concurrency: 3, perHost: 2})
    expect(result.counts.ok).toBe(24)
    expect(most).toBe(3)
    for (const host of hosts) expect(host.maxInFlight()).toBeLessThanOrEqual(2)
  })
})

describe('cache', () => {
  it('a second run requests nothing; after the expiry (injected clock) OK links are requested again; broken ones every run', async () => {
    const server = await site()
    const dir = await folders.make()
    let clock = Date.UTC(2026, 0, 1)
    const options: LinkCheckOptions = {now: () => clock, allowPrivate: true}
    const uses = usesOf([`${server.url}/ok`, `${server.url}/missing`, `${server.url}/page#install`])
    const first = await checkLinks(uses, dir, options)
    expect(first.counts).toMatchObject({cached: 0, ok: 2, broken: 1})
    expect(server.seen).toHaveLength(3)
    const file = JSON.parse(await readFile(path.join(dir, linkCacheFile), 'utf8'))
    // Only the OK ones: a broken result is checked again anyway.
    expect(Object.keys(file.links)).toHaveLength(2)

    clock += 23 * 3600 * 1000
    const second = await checkLinks(uses, dir, options)
    expect(second.counts).toMatchObject({cached: 2, ok: 2, broken: 1})
    expect(server.seen.slice(3).map((s) => s.url)).toEqual(['/missing'])
    expect(second.diagnostics).toEqual(first.diagnostics)

    clock += 2 * 3600 * 1000
    await checkLinks(uses, dir, options)
    expect(
      server.seen
        .slice(4)
        .map((s) => s.url)
        .sort()
    ).toEqual(['/missing', '/ok', '/page'])
  })

  it('a cache that cannot be written is a warning naming it, and the check stands', async () => {
    const server = await site()
    const dir = await folders.make()
    // A file where the .kbsync folder would be.
    await writeFile(path.join(dir, '.kbsync'), 'not a folder')
    const result = await checkLinks(usesOf([`${server.url}/ok`]), dir, {allowPrivate: true})
    expect(result.counts.ok).toBe(1)
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        rule: 'link-cache-unwritten',
        message: expect.stringContaining('.kbsync/link-cache.json was not written')
      })
    ])
  })

  it('a fragment not checked before sends the page request again; --no-cache ignores the cache', async () => {
    const server = await site()
    const dir = await folders.make()
    await checkLinks(usesOf([`${server.url}/page#install`]), dir, {allowPrivate: true})
    await checkLinks(usesOf([`${server.url}/page#install`]), dir, {allowPrivate: true})
    expect(server.seen).toHaveLength(1)
    await checkLinks(usesOf([`${server.url}/page#legacy`]), dir, {allowPrivate: true})
    expect(server.seen).toHaveLength(2)
    await checkLinks(usesOf([`${server.url}/page#legacy`]), dir, {noCache: true, allowPrivate: true})
    expect(server.seen).toHaveLength(3)
  })
})

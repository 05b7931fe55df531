/**
 * `kbsync check-links` at scale: 1,000 distinct external links spread over
 * ten local sites that answer each request after 50 ms, checked with the
 * defaults (8 at once, 2 per host), against the same links checked one at a
 * time (measured in the same run) and against the ideal the concurrency
 * allows (links x latency / concurrency). A second run reads the cache.
 */
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import {mkdtemp, rm} from 'node:fs/promises'
import {loadavg, tmpdir} from 'node:os'
import path from 'node:path'
import {Agent, request} from 'undici'
import {mapLimit} from '../src/local/index.js'
import {checkLinks, type LinkCheckOptions, type LinkUse} from '../src/links/index.js'
import type {Row} from './push-bench.js'

/** A site answering every request 200 after `latencyMs`. */
async function slowSite(latencyMs: number): Promise<{url: string; requests: () => number; close: () => Promise<void>}> {
  let requests = 0
  const server = http.createServer((_req, res) => {
    requests++
    setTimeout(() => res.writeHead(200, {'content-type': 'text/plain'}).end('ok'), latencyMs)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** Seconds a check of `uses` takes with `options`. */
async function timed(
  uses: LinkUse[],
  dir: string,
  options: LinkCheckOptions
): Promise<{seconds: number; ok: number; cached: number}> {
  const started = performance.now()
  const result = await checkLinks(uses, dir, options)
  return {seconds: (performance.now() - started) / 1000, ok: result.counts.ok, cached: result.counts.cached}
}

/** Seconds the bare client takes for the same requests, `concurrency` at once: HEAD through undici, no gates, no retries, no cache. */
async function bareUndici(uses: LinkUse[], concurrency: number): Promise<number> {
  const agent = new Agent({connections: concurrency})
  const started = performance.now()
  await mapLimit(uses, concurrency, async (use) => {
    const response = await request(use.url, {method: 'HEAD', dispatcher: agent})
    await response.body.dump()
  })
  await agent.close()
  return (performance.now() - started) / 1000
}

/** The rows of the link-check benchmark: `links` links over `hosts` sites answering after `latencyMs`. */
export async function benchCheckLinks(links: number, hosts = 10, latencyMs = 50): Promise<Row[]> {
  const sites = await Promise.all(Array.from({length: hosts}, () => slowSite(latencyMs)))
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-bench-links-'))
  try {
    const uses: LinkUse[] = Array.from({length: links}, (_, i) => ({
      url: `${sites[i % hosts]!.url}/page/${i}`,
      file: `doc-${Math.floor(i / 10)}.md`,
      line: (i % 10) + 1,
      kind: 'link'
    }))
    const sequential = await timed(uses, dir, {noCache: true, concurrency: 1, perHost: 1})
    const concurrency = 8
    const parallel = await timed(uses, dir, {concurrency})
    const cached = await timed(uses, dir, {concurrency})
    const bare = await bareUndici(uses, concurrency)
    const ideal = (links * latencyMs) / 1000 / concurrency
    const requests = sites.reduce((sum, site) => sum + site.requests(), 0) - links
    console.log(
      `check-links: ${links} links on ${hosts} hosts, ${latencyMs} ms each: sequential ${sequential.seconds.toFixed(2)} s, concurrency ${concurrency} ${parallel.seconds.toFixed(2)} s (ideal ${ideal.toFixed(2)} s, bare undici ${bare.toFixed(2)} s), cached ${cached.seconds.toFixed(3)} s; ${requests} requests; load average ${loadavg()[0]!.toFixed(1)}`
    )
    const allOk = sequential.ok === links && parallel.ok === links && cached.cached === links
    return [
      {
        bench: `check-links ${links} links, ${latencyMs} ms latency`,
        measure: `time vs sequential (concurrency ${concurrency}, 2 per host)`,
        value: `${(sequential.seconds / parallel.seconds).toFixed(2)}x faster (${parallel.seconds.toFixed(2)} vs ${sequential.seconds.toFixed(2)} s)`,
        target: '>= 6x',
        met: allOk && sequential.seconds / parallel.seconds >= 6
      },
      {
        bench: `check-links ${links} links, ${latencyMs} ms latency`,
        measure: `time vs ideal (${links} x ${latencyMs} ms / ${concurrency})`,
        value: `${(parallel.seconds / ideal).toFixed(2)}x (${parallel.seconds.toFixed(2)} vs ${ideal.toFixed(2)} s)`,
        target: '<= 1.3x',
        met: allOk && parallel.seconds / ideal <= 1.3
      },
      {
        bench: `check-links ${links} links, ${latencyMs} ms latency`,
        measure: `time vs bare undici HEADs, ${concurrency} at once (no gates, retries, cache)`,
        value: `${(parallel.seconds / bare).toFixed(2)}x (${parallel.seconds.toFixed(2)} vs ${bare.toFixed(2)} s)`,
        target: '<= 1.3x',
        met: allOk && parallel.seconds / bare <= 1.3
      },
      {
        bench: `check-links ${links} links, second run`,
        measure: 'time with the cache, requests sent',
        value: `${cached.seconds.toFixed(3)} s, ${requests - 2 * links} requests`,
        target: '0 requests',
        met: requests === 2 * links && cached.cached === links
      }
    ]
  } finally {
    await Promise.all(sites.map((site) => site.close()))
    await rm(dir, {recursive: true, force: true})
  }
}

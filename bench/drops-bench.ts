/**
 * The client under the platform's dropped connections (issue 18): the
 * initial push of `push-bench.ts`'s tree through a proxy that drops
 * connections in bursts of time covering 5% of it (5% of a steady client's
 * requests; half dropped before the server sees them, half after it applied
 * them), against the same push through the same proxy dropping nothing, in
 * the same run. Targets: at most 1.5x the fault-free
 * wall time, no failed step, no duplicate item.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {startServer, type RunningServer} from '../src/server/index.js'
import {burstDrops, startFaultProxy, type Fate, type ProxiedRequest} from './fault-proxy.js'
import {median, pushInChild, type Row} from './push-bench.js'
import {generateTree} from './tree.js'

/** One push's figures. */
interface DropRun {
  ms: number
  failed: number
  dropped: number
  duplicates: number
}

/** Items sharing a parent and a title with another: what a repeated create leaves. */
function duplicates(server: RunningServer): number {
  const keys = server.items().map((item) => `${item.parent_topic_id ?? ''}/${item.type}/${item.title}`)
  return keys.length - new Set(keys).size
}

/**
 * What drops connections: the proxy's `decide`, and/or the server's own
 * habit of dropping while more than `dropOver` requests arrived within a second.
 */
interface Network {
  decide?: (request: ProxiedRequest) => Fate
  dropOver?: number
}

/** A fresh tree and server, pushed (in a child process) through a proxy, the network as `network` says. */
async function pushThrough(
  articles: number,
  images: number,
  latencyMs: number,
  concurrency: number,
  network: Network
): Promise<DropRun> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-bench-drops-'))
  await generateTree(dir, articles, {perTopic: 25, imageEvery: articles / images})
  const server = await startServer({
    port: 0,
    latencyMs,
    ...(network.dropOver ? {platformHabits: {dropOver: network.dropOver}} : {})
  })
  const proxy = await startFaultProxy(server.filesUrl, network.decide ?? (() => 'pass'))
  try {
    const run = await pushInChild(
      dir,
      {apiUrl: `${proxy.origin}/v4`, filesUrl: proxy.origin, token: server.token},
      concurrency
    )
    const dropped =
      proxy.counts['drop-before'] +
      proxy.counts['drop-after'] +
      server.requestLog().filter((entry) => entry.faulted === 'drop-burst').length
    return {ms: run.ms, failed: run.failed, dropped, duplicates: duplicates(server)}
  } finally {
    await proxy.close()
    await server.close()
    await rm(dir, {recursive: true, force: true})
  }
}

/**
 * `repeats` pairs of pushes, each pair a fault-free push and one through
 * bursts covering `share` of the time, `meanBurstMs` each on average (a new
 * seed per pair); medians compared.
 */
export async function benchBurstDrops(
  articles: number,
  images: number,
  latencyMs: number,
  concurrency = 8,
  repeats = 3,
  share = 0.05,
  meanBurstMs = 100
): Promise<Row[]> {
  const clean: DropRun[] = []
  const dropping: DropRun[] = []
  for (let i = 0; i < repeats; i++) {
    clean.push(await pushThrough(articles, images, latencyMs, concurrency, {}))
    dropping.push(
      await pushThrough(articles, images, latencyMs, concurrency, {decide: burstDrops(share, meanBurstMs, 18 + i)})
    )
  }
  const base = median(clean)
  const faulty = median(dropping)
  const ratio = faulty.ms / base.ms
  const failed = dropping.reduce((sum, run) => sum + run.failed, 0)
  const doubled = dropping.reduce((sum, run) => sum + run.duplicates, 0)
  const name = `push through dropped connections in bursts (${Math.round(share * 100)}% of the time, ${meanBurstMs} ms each on average), ${articles} articles + ${images} images, ${latencyMs} ms latency`
  const all = (runs: DropRun[]) => runs.map((run) => (run.ms / 1000).toFixed(2)).join(', ')
  return [
    {
      bench: name,
      measure: `wall time, fault-free (median of ${repeats})`,
      value: `${(base.ms / 1000).toFixed(2)} s (runs ${all(clean)} s)`,
      target: '',
      met: null
    },
    {
      bench: name,
      measure: `wall time, dropping (median of ${repeats})`,
      value: `${(faulty.ms / 1000).toFixed(2)} s (runs ${all(dropping)} s; ${dropping.map((run) => run.dropped).join(', ')} dropped)`,
      target: '',
      met: null
    },
    {
      bench: name,
      measure: 'dropping / fault-free',
      value: `${ratio.toFixed(2)}x`,
      target: '<= 1.5x',
      met: ratio <= 1.5
    },
    {
      bench: name,
      measure: 'failed steps, duplicate items (all runs)',
      value: `${failed}, ${doubled}`,
      target: '0, 0',
      met: failed === 0 && doubled === 0
    }
  ]
}

/**
 * The platform's other face of the same habit: the local server drops
 * connections while more than `dropOver` requests arrived within a second
 * (dropped ones counted), so a client that keeps its pace keeps losing
 * them. No ratio target (the pace the server allows bounds the push); the
 * push must finish with no failed step and no duplicate.
 */
export async function benchRateDrops(
  articles: number,
  images: number,
  latencyMs: number,
  dropOver: number,
  concurrency = 8
): Promise<Row[]> {
  const clean = await pushThrough(articles, images, latencyMs, concurrency, {})
  const run = await pushThrough(articles, images, latencyMs, concurrency, {dropOver})
  const name = `push through a server dropping connections beyond ${dropOver} requests a second, ${articles} articles + ${images} images, ${latencyMs} ms latency`
  return [
    {
      bench: name,
      measure: 'wall time: fault-free, dropping',
      value: `${(clean.ms / 1000).toFixed(2)} s, ${(run.ms / 1000).toFixed(2)} s (${run.dropped} dropped)`,
      target: '',
      met: null
    },
    {
      bench: name,
      measure: 'failed steps, duplicate items',
      value: `${run.failed}, ${run.duplicates}`,
      target: '0, 0',
      met: run.failed === 0 && run.duplicates === 0
    }
  ]
}

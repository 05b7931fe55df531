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
import {pushInChild, type Row} from './push-bench.js'
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

/** A fresh tree and server, pushed (in a child process) through a proxy deciding with `decide`. */
async function pushThrough(articles: number, images: number, latencyMs: number, concurrency: number, decide: (request: ProxiedRequest) => Fate): Promise<DropRun> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-bench-drops-'))
  await generateTree(dir, articles, {perTopic: 25, imageEvery: articles / images})
  const server = await startServer({port: 0, latencyMs})
  const proxy = await startFaultProxy(server.filesUrl, decide)
  try {
    const run = await pushInChild(dir, {apiUrl: `${proxy.origin}/v4`, filesUrl: proxy.origin, token: server.token}, concurrency)
    return {ms: run.ms, failed: run.failed, dropped: proxy.counts['drop-before'] + proxy.counts['drop-after'], duplicates: duplicates(server)}
  } finally {
    await proxy.close()
    await server.close()
    await rm(dir, {recursive: true, force: true})
  }
}

/** The run of median wall time. */
function median(runs: DropRun[]): DropRun {
  return [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)]!
}

/**
 * `repeats` pairs of pushes, each pair a fault-free push and one through
 * bursts covering `share` of the time, `meanBurstMs` each on average (a new
 * seed per pair); medians compared.
 */
export async function benchBurstDrops(articles: number, images: number, latencyMs: number, concurrency = 8, repeats = 3, share = 0.05, meanBurstMs = 100): Promise<Row[]> {
  const clean: DropRun[] = []
  const dropping: DropRun[] = []
  for (let i = 0; i < repeats; i++) {
    clean.push(await pushThrough(articles, images, latencyMs, concurrency, () => 'pass'))
    dropping.push(await pushThrough(articles, images, latencyMs, concurrency, burstDrops(share, meanBurstMs, 18 + i)))
  }
  const base = median(clean)
  const faulty = median(dropping)
  const ratio = faulty.ms / base.ms
  const failed = dropping.reduce((sum, run) => sum + run.failed, 0)
  const doubled = dropping.reduce((sum, run) => sum + run.duplicates, 0)
  const name = `push through dropped connections in bursts (${Math.round(share * 100)}% of the time, ${meanBurstMs} ms each on average), ${articles} articles + ${images} images, ${latencyMs} ms latency`
  const all = (runs: DropRun[]) => runs.map((run) => (run.ms / 1000).toFixed(2)).join(', ')
  return [
    {bench: name, measure: `wall time, fault-free (median of ${repeats})`, value: `${(base.ms / 1000).toFixed(2)} s (runs ${all(clean)} s)`, target: '', met: null},
    {
      bench: name,
      measure: `wall time, dropping (median of ${repeats})`,
      value: `${(faulty.ms / 1000).toFixed(2)} s (runs ${all(dropping)} s; ${dropping.map((run) => run.dropped).join(', ')} dropped)`,
      target: '',
      met: null
    },
    {bench: name, measure: 'dropping / fault-free', value: `${ratio.toFixed(2)}x`, target: '<= 1.5x', met: ratio <= 1.5},
    {bench: name, measure: 'failed steps, duplicate items (all runs)', value: `${failed}, ${doubled}`, target: '0, 0', met: failed === 0 && doubled === 0}
  ]
}

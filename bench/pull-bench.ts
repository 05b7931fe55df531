/**
 * Pull benchmark (issue 19): a tree of generated articles is pushed to a
 * fresh local server, then pulled into empty folders at `latencyMs` per
 * request (each pull in a child process), against its ideal (requests x
 * latency / concurrency, measured in the same run); then the no-op pull's
 * request count.
 */
import {spawn} from 'node:child_process'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {startServer, type RunningServer} from '../src/server/index.js'
import {median, pushInChild, seconds, type Row} from './push-bench.js'
import {generateTree} from './tree.js'

/** What one pull child reports. */
interface PullRun {
  ms: number
  /** The pull process's CPU time (user and system). */
  cpuMs: number
  requests: number
  failed: number
  status: string
}

/** Runs `bench/pull-child.js` into `dir`; resolves with its figures. */
function pullInChild(dir: string, server: RunningServer, concurrency: number): Promise<PullRun> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pull-child.js')
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, dir, server.apiUrl, server.filesUrl, String(concurrency)], {
      env: {...process.env, KBSYNC_TOKEN: server.token},
      stdio: ['ignore', 'pipe', 'inherit']
    })
    let out = ''
    child.stdout.on('data', (d) => (out += String(d)))
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').pop()!) as PullRun)
        : reject(new Error(`pull child exited ${code}`))
    )
  })
}

/** One pull into a fresh empty folder: the child's figures and the server's request counts by endpoint. */
async function pullFresh(
  server: RunningServer,
  concurrency: number
): Promise<PullRun & {counts: Record<string, number>; dir: string}> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-pull-bench-'))
  server.resetLog()
  const run = await pullInChild(dir, server, concurrency)
  if (run.failed || run.status !== 'ok') throw new Error(`pull ended ${run.status} with ${run.failed} failed steps`)
  return {...run, requests: server.requestLog().length, counts: server.counts(), dir}
}

/**
 * Pull of `articles` articles with `images` images at `latencyMs`, median
 * of `repeats` pulls, against the ideal; requests per item; the no-op
 * pull's requests.
 */
export async function benchPull(
  articles: number,
  images: number,
  latencyMs: number,
  concurrency = 8,
  repeats = 3
): Promise<Row[]> {
  const source = await mkdtemp(path.join(tmpdir(), 'kbsync-pull-src-'))
  await generateTree(source, articles, {perTopic: 25, imageEvery: articles / images})
  const server = await startServer({port: 0, rateLimit: {limit: 100_000, windowSeconds: 600}})
  const folders: string[] = [source]
  try {
    const pushed = await pushInChild(source, server, concurrency)
    if (pushed.failed) throw new Error(`push: ${pushed.failed} failed steps`)
    const items = server.items().length
    server.setFaults({latencyMs})
    const runs: Array<PullRun & {counts: Record<string, number>; dir: string}> = []
    for (let i = 0; i < repeats; i++) {
      const run = await pullFresh(server, concurrency)
      folders.push(run.dir)
      runs.push(run)
    }
    const pulled = median(runs)
    server.resetLog()
    const noop = await pullInChild(pulled.dir, server, concurrency)
    const noopRequests = server.requestLog().length
    const ideal = (pulled.requests * latencyMs) / concurrency
    const {get = 0, getPermissions = 0, download = 0, structure = 0} = pulled.counts
    const name = `pull into an empty folder, ${articles} articles + ${images} images (${items} items), ${latencyMs} ms latency`
    return [
      {
        bench: name,
        measure: `wall time, concurrency ${concurrency} (median of ${repeats})`,
        value: `${seconds(pulled.ms)} (CPU ${seconds(pulled.cpuMs)}; ${pulled.requests} requests; runs ${runs.map((r) => (r.ms / 1000).toFixed(2)).join(', ')} s)`,
        target: '',
        met: null
      },
      {
        bench: name,
        measure: `vs ideal (requests x latency / ${concurrency} = ${seconds(ideal)})`,
        value: `${(pulled.ms / ideal).toFixed(2)}x`,
        target: '<= 1.3x',
        met: pulled.ms / ideal <= 1.3
      },
      {
        bench: name,
        measure: 'requests per item',
        value: `${(pulled.requests / items).toFixed(2)} (structure ${structure}, records ${get}, permissions ${getPermissions}, downloads ${download})`,
        target: '',
        met: null
      },
      {
        bench: name,
        measure: 'no-op pull: requests',
        value: `${noopRequests} (${seconds(noop.ms)})`,
        target: '1',
        met: noopRequests === 1
      }
    ]
  } finally {
    await server.close()
    for (const folder of folders) await rm(folder, {recursive: true, force: true})
  }
}

/**
 * Push benchmarks against the local server: the initial push (against the
 * ideal and a sequential push), the no-op push with state present, and the
 * peak memory of a large push (in a child process).
 */
import {spawn} from 'node:child_process'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {KbClient} from '../src/api/index.js'
import {startServer, type RunningServer} from '../src/server/index.js'
import {generateTree} from './tree.js'

/** A figure of the table: name, value, target and whether it is met. */
export interface Row {
  bench: string
  measure: string
  value: string
  target: string
  met: boolean | null
}

/** Runs `bench/push-child.js` on `dir`; resolves with its figures. */
export function pushInChild(
  dir: string,
  server: Pick<RunningServer, 'apiUrl' | 'filesUrl' | 'token'>,
  concurrency: number
): Promise<{ms: number; planMs: number; maxRssMb: number; requests: number; failed: number}> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'push-child.js')
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, dir, server.apiUrl, server.filesUrl, String(concurrency)], {
      env: {...process.env, KBSYNC_TOKEN: server.token},
      stdio: ['ignore', 'pipe', 'inherit']
    })
    let out = ''
    child.stdout.on('data', (d) => (out += String(d)))
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`push child exited ${code}`))
    )
  })
}

/** Runs `bench/bare-child.js`: `count` plain creates at `concurrency`, no engine work; resolves with the wall time. */
function bareInChild(server: RunningServer, count: number, concurrency: number): Promise<number> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bare-child.js')
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [script, server.apiUrl, server.filesUrl, String(count), String(concurrency)],
      {env: {...process.env, KBSYNC_TOKEN: server.token}, stdio: ['ignore', 'pipe', 'inherit']}
    )
    let out = ''
    child.stdout.on('data', (d) => (out += String(d)))
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0
        ? resolve((JSON.parse(out.trim().split('\n').pop()!) as {ms: number}).ms)
        : reject(new Error(`bare child exited ${code}`))
    )
  })
}

async function tempTree(articles: number, imageEvery: number): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-bench-'))
  await generateTree(dir, articles, {perTopic: 25, imageEvery})
  return dir
}

/** One push of a fresh tree to a fresh server at `latencyMs`: the child's figures and the server's request count. */
async function pushFresh(
  articles: number,
  images: number,
  latencyMs: number,
  concurrency: number
): Promise<{ms: number; planMs: number; requests: number}> {
  const dir = await tempTree(articles, articles / images)
  const server = await startServer({port: 0, latencyMs})
  try {
    const run = await pushInChild(dir, server, concurrency)
    if (run.failed) throw new Error(`${run.failed} failed steps`)
    return {ms: run.ms, planMs: run.planMs, requests: server.requestLog().length}
  } finally {
    await server.close()
    await rm(dir, {recursive: true, force: true})
  }
}

/** The run of median wall time among `runs`. */
export function median<T extends {ms: number}>(runs: T[]): T {
  return [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)]!
}

/** `ms` as seconds with two decimals, for the tables. */
export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`

/**
 * Initial push of `articles` articles with `images` images at `latencyMs`:
 * concurrency 8 vs 1 vs the ideal and the transport floor. The concurrent
 * push and the floor are run `repeats` times and their medians compared
 * (these machines are shared: one run can be off by 15%); the sequential
 * push, mostly waiting, once.
 */
export async function benchInitialPush(
  articles: number,
  images: number,
  latencyMs: number,
  concurrency = 8,
  repeats = 3
): Promise<Row[]> {
  const parallelRuns: Array<{ms: number; planMs: number; requests: number}> = []
  for (let i = 0; i < repeats; i++) parallelRuns.push(await pushFresh(articles, images, latencyMs, concurrency))
  const parallel = median(parallelRuns)
  const sequential = await pushFresh(articles, images, latencyMs, 1)
  const ideal = (parallel.requests * latencyMs) / concurrency
  const bareRuns: Array<{ms: number}> = []
  for (let i = 0; i < repeats; i++) {
    const bareServer = await startServer({port: 0, latencyMs})
    bareRuns.push({ms: await bareInChild(bareServer, parallel.requests, concurrency).finally(() => bareServer.close())})
  }
  const bare = median(bareRuns).ms
  const all = (runs: Array<{ms: number}>) => runs.map((run) => (run.ms / 1000).toFixed(2)).join(', ')
  const name = `initial push, ${articles} articles + ${images} images, ${latencyMs} ms latency`
  return [
    {
      bench: name,
      measure: `wall time, concurrency ${concurrency} (median of ${repeats})`,
      value: `${seconds(parallel.ms)} (${parallel.requests} requests; plan ${seconds(parallel.planMs)}; runs ${all(parallelRuns)} s)`,
      target: '',
      met: null
    },
    {
      bench: name,
      measure: 'wall time, concurrency 1',
      value: `${seconds(sequential.ms)} (${sequential.requests} requests)`,
      target: '',
      met: null
    },
    {
      bench: name,
      measure: 'speed-up over sequential',
      value: `${(sequential.ms / parallel.ms).toFixed(2)}x`,
      target: '>= 6x',
      met: sequential.ms / parallel.ms >= 6
    },
    {
      bench: name,
      measure: `vs ideal (requests x latency / ${concurrency} = ${seconds(ideal)})`,
      value: `${(parallel.ms / ideal).toFixed(2)}x`,
      target: '<= 1.5x',
      met: parallel.ms / ideal <= 1.5
    },
    {
      bench: name,
      measure: `transport floor: ${parallel.requests} bare creates at concurrency ${concurrency}, no engine work (median of ${repeats})`,
      value: `${seconds(bare)} = ${(bare / ideal).toFixed(2)}x ideal; the push is ${(parallel.ms / bare).toFixed(2)}x this (runs ${all(bareRuns)} s)`,
      target: '',
      met: null
    }
  ]
}

/** Push of a large tree in a child (peak RSS), then a no-op push with the state present (requests, time). */
export async function benchLargeTree(articles: number): Promise<Row[]> {
  const dir = await tempTree(articles, 0)
  // The platform's 5,000 requests per 10 minutes would make the client spread the last requests of a
  // 5,000-article push over the rest of the window: right for the platform, but this measures memory and the no-op.
  const server = await startServer({port: 0, rateLimit: {limit: 100_000, windowSeconds: 600}})
  const client = new KbClient({apiUrl: server.apiUrl, filesUrl: server.filesUrl, token: server.token})
  try {
    const first = await pushInChild(dir, server, 8)
    if (first.failed) throw new Error(`${first.failed} failed steps`)
    const {push} = await import('../src/sync/index.js')
    server.resetLog()
    const started = performance.now()
    const noop = await push({dir, client})
    const ms = performance.now() - started
    const counts = server.counts()
    const reads = Object.entries(counts)
      .filter(([key]) => key !== 'writes' && key !== 'structure')
      .reduce((sum, [, n]) => sum + n, 0)
    const name = `${articles}-article tree`
    return [
      {
        bench: name,
        measure: 'initial push: peak RSS (child process)',
        value: `${first.maxRssMb.toFixed(0)} MB`,
        target: '< 300 MB',
        met: first.maxRssMb < 300
      },
      {
        bench: name,
        measure: 'initial push: wall time (no latency)',
        value: `${(first.ms / 1000).toFixed(1)} s`,
        target: '',
        met: null
      },
      {
        bench: name,
        measure: 'no-op push: requests',
        value: `${server.requestLog().length} (structure ${counts.structure ?? 0}, other ${reads}, writes ${counts.writes}, ops ${noop.plan.ops.length})`,
        target: 'structure reads only',
        met: reads === 0 && counts.writes === 0
      },
      {
        bench: name,
        measure: 'no-op push: wall time',
        value: `${(ms / 1000).toFixed(2)} s`,
        target: '< 2 s',
        met: ms < 2000
      }
    ]
  } finally {
    await client.close()
    await server.close()
    await rm(dir, {recursive: true, force: true})
  }
}

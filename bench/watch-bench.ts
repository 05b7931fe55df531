/**
 * Watch latency: `kbsync watch` runs as a child against the local server;
 * each edit saves a new body and the clock stops when the server holds it.
 * Reported beyond the debounce (the quiet time watch waits by design).
 */
import {spawn} from 'node:child_process'
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {startServer} from '../src/server/index.js'
import type {Row} from './push-bench.js'
import {generateTree} from './tree.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The `p`-quantile (0..1) of sorted `values`. */
function quantile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!
}

/** `edits` saves, one at a time, on a tree of `articles` articles watched with `debounceMs`. */
export async function benchWatch(edits: number, debounceMs: number, articles = 100): Promise<Row[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-bench-watch-'))
  const files = await generateTree(dir, articles, {perTopic: 25})
  const server = await startServer({port: 0})
  const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/cli/bin.js')
  const env = {
    ...process.env,
    KBSYNC_API_URL: server.apiUrl,
    KBSYNC_FILES_URL: server.filesUrl,
    KBSYNC_TOKEN: server.token
  }
  const child = spawn(process.execPath, [bin, 'watch', dir, '--debounce', String(debounceMs)], {
    env,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout.on('data', (d) => (output += String(d)))
  child.stderr.on('data', (d) => (output += String(d)))
  const bodyHas = (title: string, marker: string) =>
    server.items().some((item) => item.title === title && (item.body ?? '').includes(marker))
  try {
    // Wait for the initial push to land.
    const deadline = Date.now() + 300_000
    while (!bodyHas(`Page ${articles - 1}`, `Article ${articles - 1}`)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`watch did not push the tree: ${output}`)
      await sleep(20)
    }
    await sleep(debounceMs + 500)
    const times: number[] = []
    for (let edit = 0; edit < edits; edit++) {
      const index = (edit * 7) % files.length
      const marker = `edit-${edit}-marker`
      const started = performance.now()
      await writeFile(path.join(dir, files[index]!), `# Page ${index}\n\nEdited body ${marker}.\n`)
      while (!bodyHas(`Page ${index}`, marker)) {
        if (performance.now() - started > 20_000) throw new Error(`edit ${edit} never arrived: ${output.slice(-2000)}`)
        await sleep(2)
      }
      times.push(performance.now() - started)
      await sleep(50)
    }
    const median = quantile(times, 0.5)
    const p95 = quantile(times, 0.95)
    const name = `watch, ${articles} articles, ${edits} edits, debounce ${debounceMs} ms`
    return [
      {
        bench: name,
        measure: 'save -> server, median (beyond debounce)',
        value: `${median.toFixed(0)} ms (${(median - debounceMs).toFixed(0)} ms)`,
        target: '< 300 ms beyond',
        met: median - debounceMs < 300
      },
      {
        bench: name,
        measure: 'save -> server, p95 (beyond debounce)',
        value: `${p95.toFixed(0)} ms (${(p95 - debounceMs).toFixed(0)} ms)`,
        target: '',
        met: null
      }
    ]
  } finally {
    child.kill('SIGTERM')
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.on('exit', resolve)))
    await server.close()
    await rm(dir, {recursive: true, force: true})
  }
}

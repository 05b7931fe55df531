/**
 * Preview's time to first page (issue 32): `kbsync preview` is started as a
 * child on a generated scale tree and one article is asked for at once; the
 * clock runs from the spawn to the page's last byte. Beside it, in the same
 * run: a bare Node HTTP server spawned and asked the same way (the floor:
 * starting a process), `kbsync --version` (the CLI's own start, loading its
 * modules), and one full scan of the tree (what the preview did before it
 * served its first page). On a loaded machine the ratios say more than the
 * times.
 */
import {spawn} from 'node:child_process'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {scanFolder} from '../src/local/index.js'
import {startChild} from './preview-bench.js'
import type {Row} from './push-bench.js'
import {generateScaleTree} from './scale-tree.js'

const runs = 3
const cliBin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/cli/bin.js')
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!

/** Time to first page on a generated tree of `articles`, median of three starts, against its two baselines. */
export async function benchFirstPage(articles: number): Promise<Row[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-bench-first-page-'))
  try {
    await generateScaleTree(dir, articles)
    const listing = await scanFolder(dir, {skipBodies: true})
    const files = Object.values(listing.byPath).flatMap((node) => (node.kind === 'article' ? [node.path] : []))
    const article = files[Math.floor(files.length / 2)]!
    const firstPages: number[] = []
    const bare: number[] = []
    const version: number[] = []
    let whileReading = 0
    for (let run = 0; run < runs; run++) {
      const page = await firstPage(dir, article)
      firstPages.push(page.ms)
      if (page.whileReading) whileReading++
      bare.push(await bareServer())
      version.push(await cliVersion())
    }
    const started = performance.now()
    await scanFolder(dir)
    const fullScan = performance.now() - started
    const first = median(firstPages)
    const bench = `preview, ${articles} generated documents`
    return [
      {
        bench,
        measure: `time to first page (spawn -> page), median of ${runs}`,
        value: `${first.toFixed(0)} ms (${whileReading}/${runs} served while the rest was still read)`,
        target: '< 2000 ms',
        met: first < 2000
      },
      {
        bench,
        measure: 'first page vs a bare HTTP server spawned and asked the same way',
        value: `${(first / median(bare)).toFixed(2)}x (${median(bare).toFixed(0)} ms)`,
        target: '',
        met: null
      },
      {
        bench,
        measure: "first page vs the CLI's own start (kbsync --version)",
        value: `${(first / median(version)).toFixed(2)}x (${median(version).toFixed(0)} ms)`,
        target: '',
        met: null
      },
      {
        bench,
        measure: 'one full scan of the tree (read before the first page, before issue 32)',
        value: `${fullScan.toFixed(0)} ms`,
        target: '',
        met: null
      }
    ]
  } finally {
    await rm(dir, {recursive: true, force: true})
  }
}

/** Spawns the preview of `dir` and asks for `article` as soon as it listens: the time to its page, and whether the page said the folder was still being read. */
async function firstPage(dir: string, article: string): Promise<{ms: number; whileReading: boolean}> {
  const started = performance.now()
  const preview = await startChild(dir)
  try {
    const response = await fetch(`${preview.url}a/${article.split('/').map(encodeURIComponent).join('/')}`)
    const html = await response.text()
    if (response.status !== 200) throw new Error(`the first page answered ${response.status}`)
    return {ms: performance.now() - started, whileReading: html.includes('id="kb-progress"')}
  } finally {
    await preview.stop()
  }
}

/** Runs `kbsync --version`: the time the CLI takes to start and stop. */
async function cliVersion(): Promise<number> {
  const started = performance.now()
  const child = spawn(process.execPath, [cliBin, '--version'], {stdio: 'ignore'})
  await new Promise((resolve) => child.once('exit', resolve))
  return performance.now() - started
}

/** Spawns a bare Node HTTP server and asks it once: the time to its answer. */
async function bareServer(): Promise<number> {
  const started = performance.now()
  const source = `require('node:http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', function () { console.log('at http://127.0.0.1:' + this.address().port + '/') })`
  const child = spawn(process.execPath, ['-e', source], {stdio: ['ignore', 'pipe', 'inherit']})
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = ''
      child.stdout.on('data', (data) => {
        output += String(data)
        const match = /at (http:\S+)/.exec(output)
        if (match) resolve(match[1]!)
      })
      child.once('exit', (code) => reject(new Error(`the bare server exited with ${code}`)))
    })
    await (await fetch(url)).text()
    return performance.now() - started
  } finally {
    child.kill()
  }
}

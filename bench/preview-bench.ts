/**
 * Preview latency in a real browser: `kbsync preview` runs as a child,
 * headless Chromium (playwright-core, Debian's /usr/bin/chromium) opens an
 * article, and each save appends a marker to that article's file; the clock
 * stops when the page's DOM shows the marker (the live reload's fragment
 * swapped in). Baseline in the same run: one full scan of the same tree
 * (what every save cost before the preview rescanned incrementally).
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {existsSync, readdirSync, statSync} from 'node:fs'
import {cp, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {chromium} from 'playwright-core'
import {scanFolder} from '../src/local/index.js'
import {corporaRoot} from './corpora-throughput.js'
import type {Row} from './push-bench.js'
import {benchFirstPage} from './preview-first-page.js'
import {generateTree} from './tree.js'

const executablePath = '/usr/bin/chromium'
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!

/** What one tree's run measured. */
interface PreviewFigures {
  saves: number[]
  /** The server's own rescan times, as it logs them. */
  rescans: number[]
  fullScan: number
}

/**
 * Preview's time to first page on a generated scale tree of `articles`; save-to-page on a generated tree of
 * `articles` and on the largest corpus, `saves` saves each (with Chromium).
 */
export async function benchPreview(articles: number, saves: number): Promise<Row[]> {
  const rows: Row[] = await benchFirstPage(articles)
  if (!existsSync(executablePath)) {
    console.log(`preview bench: ${executablePath} is absent (apt-get install chromium); save-to-page skipped`)
    return rows
  }
  const generated = await mkdtemp(path.join(tmpdir(), 'kbsync-bench-preview-'))
  try {
    const files = await generateTree(generated, articles)
    rows.push(
      ...rowsOf(
        `preview, ${articles} generated documents`,
        await measure(generated, files[Math.floor(files.length / 2)]!, saves)
      )
    )
  } finally {
    await rm(generated, {recursive: true, force: true})
  }
  const corpus = largestCorpus()
  if (!corpus) {
    console.log(`preview bench: no corpora at ${corporaRoot()} (set KBSYNC_CORPORA); the corpus row is skipped`)
    return rows
  }
  const copy = await mkdtemp(path.join(tmpdir(), 'kbsync-bench-preview-corpus-'))
  try {
    await cp(corpus.dir, copy, {recursive: true})
    const name = `preview, ${path.basename(corpus.dir)} (${corpus.documents} documents)`
    rows.push(...rowsOf(name, await measure(copy, await medianArticle(copy), saves)))
  } finally {
    await rm(copy, {recursive: true, force: true})
  }
  return rows
}

function rowsOf(bench: string, figures: PreviewFigures): Row[] {
  const save = median(figures.saves)
  const rescan = median(figures.rescans)
  return [
    {
      bench,
      measure: `save -> page DOM, median of ${figures.saves.length} (Chromium)`,
      value: `${save.toFixed(0)} ms`,
      target: '< 300 ms',
      met: save < 300
    },
    {
      bench,
      measure: 'server rescan per save vs one full scan (the former cost of a save)',
      value: `${(rescan / figures.fullScan).toFixed(2)}x (${rescan.toFixed(0)} vs ${figures.fullScan.toFixed(0)} ms)`,
      target: '',
      met: null
    }
  ]
}

/** Opens `file` of `dir` in the preview and times `saves` saves of it until the page shows them. */
async function measure(dir: string, file: string, saves: number): Promise<PreviewFigures> {
  const fullScans: number[] = []
  for (let run = 0; run < 3; run++) {
    const started = performance.now()
    await scanFolder(dir)
    fullScans.push(performance.now() - started)
  }
  const preview = await startChild(dir)
  const browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking']
  })
  try {
    const page = await browser.newPage()
    // Embeds point at video and diagram hosts: answered locally, there is no network to wait on.
    await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.fulfill({status: 204, body: ''}))
    await page.goto(`${preview.url}a/${file.split('/').map(encodeURIComponent).join('/')}`, {waitUntil: 'load'})
    // The page's event stream is open once the status says so.
    await page.waitForSelector('.kb-status[data-state="live"]', {timeout: 30_000})
    const original = await readFile(path.join(dir, file), 'utf8')
    const times: number[] = []
    for (let save = 0; save < saves; save++) {
      const marker = `preview-marker-${save}`
      const shown = page.waitForFunction(
        (text) => document.getElementById('kb-main')?.textContent?.includes(text),
        marker,
        {timeout: 30_000, polling: 'raf'}
      )
      const started = performance.now()
      await writeFile(path.join(dir, file), `${original}\n\nSaved ${marker}.\n`)
      await shown
      times.push(performance.now() - started)
      await sleep(300)
    }
    return {saves: times, rescans: preview.rescans.slice(-saves), fullScan: median(fullScans)}
  } finally {
    await browser.close()
    await preview.stop()
  }
}

/** `kbsync preview DIR --port 0` as a child; its URL, and the rescan times it logs. */
export async function startChild(dir: string): Promise<{url: string; rescans: number[]; stop(): Promise<void>}> {
  const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/cli/bin.js')
  const child: ChildProcess = spawn(process.execPath, [bin, 'preview', dir, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  const rescans: number[] = []
  child.stdout!.on('data', (data) => {
    output += String(data)
    for (const match of String(data).matchAll(/^updated .* \((\d+) ms\)$/gm)) rescans.push(Number(match[1]))
  })
  child.stderr!.on('data', (data) => (output += String(data)))
  const deadline = Date.now() + 120_000
  let url: string | undefined
  while (!(url = / at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1])) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`preview did not start: ${output.slice(-2000)}`)
    await sleep(20)
  }
  return {
    url,
    rescans,
    async stop() {
      child.kill('SIGTERM')
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.on('exit', resolve)))
    }
  }
}

/** The corpus with the most documents (`.md`/`.mdx` files), if any. */
function largestCorpus(): {dir: string; documents: number} | undefined {
  const root = corporaRoot()
  if (!existsSync(root)) return undefined
  const corpora = readdirSync(root, {withFileTypes: true})
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({dir: path.join(root, entry.name), documents: documentsOf(path.join(root, entry.name)).length}))
  return corpora.sort((a, b) => b.documents - a.documents)[0]
}

function documentsOf(dir: string, relative = ''): string[] {
  return readdirSync(path.join(dir, relative), {withFileTypes: true}).flatMap((entry) => {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') return []
    const child = path.posix.join(relative, entry.name)
    if (entry.isDirectory()) return documentsOf(dir, child)
    return /\.mdx?$/i.test(entry.name) ? [child] : []
  })
}

/** The article of median size among those the scan lists (a typical page to edit). */
async function medianArticle(dir: string): Promise<string> {
  const scan = await scanFolder(dir)
  const articles = Object.values(scan.byPath)
    .filter((node) => node.kind === 'article')
    .map((node) => ({file: node.path, size: statSync(path.join(dir, node.path)).size}))
    .sort((a, b) => a.size - b.size)
  return articles[Math.floor(articles.length / 2)]!.file
}

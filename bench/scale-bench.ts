/**
 * The scale benchmark (issue 32): per size, a tree of generated articles
 * (`generateScaleTree`) pushed to a fresh local server, pushed again (no-op),
 * pulled into an empty folder and pulled again (no-op), each run in a child
 * process reporting wall time, CPU time and peak RSS; then growth between
 * sizes, pull against push, no-op pull against no-op push; and a link chain
 * (`generateLinkChain`) pushed and pulled with every link resolved.
 */
import {mkdtemp, readFile, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {startServer} from '../src/server/index.js'
import type {Row} from './push-bench.js'
import {describeRun, markdownFiles, runInChild, secs, type ScaleRun} from './scale-runs.js'
import {generateLinkChain, generateScaleTree} from './scale-tree.js'

/** The four runs of one size. */
interface SizeRuns {
  articles: number
  items: number
  push: ScaleRun
  noopPush: ScaleRun
  pull: ScaleRun
  noopPull: ScaleRun
}

/** The local server as the benchmark runs it: no latency, a rate limit no run of these sizes reaches. */
const benchServer = () => startServer({port: 0, rateLimit: {limit: 10_000_000, windowSeconds: 600}})

/** Generates `articles` articles, then push, no-op push, pull into an empty folder, no-op pull. */
async function measureSize(articles: number): Promise<SizeRuns> {
  const source = await mkdtemp(path.join(tmpdir(), 'kbsync-scale-src-'))
  const target = await mkdtemp(path.join(tmpdir(), 'kbsync-scale-dst-'))
  const server = await benchServer()
  try {
    await generateScaleTree(source, articles)
    const push = await runInChild('push', source, server)
    const items = server.items().length
    const noopPush = await runInChild('push', source, server)
    const pull = await runInChild('pull', target, server)
    const pulled = (await markdownFiles(target)).length
    if (pulled < articles) throw new Error(`pull of ${articles} articles wrote ${pulled} Markdown files`)
    const noopPull = await runInChild('pull', target, server)
    return {articles, items, push, noopPush, pull, noopPull}
  } finally {
    await server.close()
    await rm(source, {recursive: true, force: true})
    await rm(target, {recursive: true, force: true})
  }
}

/** The peak RSS target of the issue at `articles`, if it sets one. */
function rssTarget(articles: number): number | undefined {
  if (articles >= 30_000) return 1024
  if (articles >= 9000) return 400
  return undefined
}

/** The rows of one size: the four runs, pull against push, the no-ops, peak RSS. */
function sizeRows(size: SizeRuns): Row[] {
  const name = `scale, ${size.articles.toLocaleString('en')} articles (${size.items} items)`
  const run = (measure: string, value: ScaleRun): Row => ({
    bench: name,
    measure,
    value: describeRun(value),
    target: '',
    met: null
  })
  const {push, noopPush, pull, noopPull} = size
  const pullRatio = pull.ms / push.ms
  const noopAllowed = 1.5 * noopPush.ms + 1000
  const rows: Row[] = [
    run('first push', push),
    run('no-op push', noopPush),
    run('pull into an empty folder', pull),
    run('no-op pull', noopPull),
    {
      bench: name,
      measure: 'pull / push, wall time (CPU)',
      value: `${pullRatio.toFixed(2)}x (${(pull.cpuMs / push.cpuMs).toFixed(2)}x)`,
      target: '<= 1.5x (goal 1.2x)',
      met: pullRatio <= 1.5
    },
    {
      bench: name,
      measure: 'no-op pull vs no-op push',
      value: `${secs(noopPull.ms)} vs ${secs(noopPush.ms)} (${(noopPull.ms / noopPush.ms).toFixed(2)}x)`,
      target: `<= 1.5x + 1 s (${secs(noopAllowed)})`,
      met: noopPull.ms <= noopAllowed
    }
  ]
  if (size.articles >= 30_000) {
    const slowest = Math.max(noopPush.ms, noopPull.ms)
    rows.push({
      bench: name,
      measure: 'no-op push and pull, slower of the two',
      value: secs(slowest),
      target: '<= 5 s',
      met: slowest <= 5000
    })
  }
  const peak = Math.max(push.maxRssMb, pull.maxRssMb)
  const limit = rssTarget(size.articles)
  rows.push({
    bench: name,
    measure: 'peak RSS, push / pull (child process)',
    value: `${push.maxRssMb.toFixed(0)} / ${pull.maxRssMb.toFixed(0)} MB`,
    target: limit === undefined ? '' : `<= ${limit} MB`,
    met: limit === undefined ? null : peak <= limit
  })
  return rows
}

/** Growth from `small` to `large`: time and peak RSS, against 1.2x linear in the articles. */
function growthRows(small: SizeRuns, large: SizeRuns): Row[] {
  const factor = large.articles / small.articles
  const allowed = 1.2 * factor
  const name = `scale growth, ${small.articles.toLocaleString('en')} -> ${large.articles.toLocaleString('en')} articles (${factor.toFixed(1)}x)`
  const ratio = (pick: (size: SizeRuns) => number) => pick(large) / pick(small)
  const time = {push: ratio((s) => s.push.ms), pull: ratio((s) => s.pull.ms)}
  const cpu = {push: ratio((s) => s.push.cpuMs), pull: ratio((s) => s.pull.cpuMs)}
  const rss = {push: ratio((s) => s.push.maxRssMb), pull: ratio((s) => s.pull.maxRssMb)}
  const noops = `no-op push ${ratio((s) => s.noopPush.ms).toFixed(2)}x, no-op pull ${ratio((s) => s.noopPull.ms).toFixed(2)}x`
  return [
    {
      bench: name,
      measure: 'wall time, push / pull (CPU)',
      value: `${time.push.toFixed(2)}x / ${time.pull.toFixed(2)}x (CPU ${cpu.push.toFixed(2)}x / ${cpu.pull.toFixed(2)}x; ${noops})`,
      target: `<= ${allowed.toFixed(1)}x`,
      met: time.push <= allowed && time.pull <= allowed
    },
    {
      bench: name,
      measure: 'peak RSS, push / pull',
      value: `${rss.push.toFixed(2)}x / ${rss.pull.toFixed(2)}x`,
      target: `<= ${allowed.toFixed(1)}x`,
      met: rss.push <= allowed && rss.pull <= allowed
    }
  ]
}

/**
 * Of the pulled chain, how many files' "Next:" link resolves to a pulled
 * file, and of the server's articles, how many bodies hold an article link
 * (not the link's text alone).
 */
async function chainLinks(target: string, bodies: string[]): Promise<{resolved: number; linked: number}> {
  const files = await markdownFiles(target)
  const known = new Set(files)
  let resolved = 0
  for (const file of files) {
    const link = /Next: \[[^\]]*\]\(<?([^)>]+)>?\)/.exec(await readFile(file, 'utf8'))?.[1]
    if (link && known.has(path.resolve(path.dirname(file), decodeURI(link)))) resolved++
  }
  const linked = bodies.filter((body) => /data-article-id=/.test(body)).length
  return {resolved, linked}
}

/** Pushes and pulls a chain of `length` articles, each linking to the next. */
async function benchChain(length: number): Promise<Row[]> {
  const source = await mkdtemp(path.join(tmpdir(), 'kbsync-chain-src-'))
  const target = await mkdtemp(path.join(tmpdir(), 'kbsync-chain-dst-'))
  const server = await benchServer()
  const name = `link chain, ${length.toLocaleString('en')} articles`
  try {
    await generateLinkChain(source, length)
    const pushed = await runInChild('push', source, server).catch((error: Error) => error)
    const pulled =
      pushed instanceof Error
        ? new Error('not run (the push failed)')
        : await runInChild('pull', target, server).catch((e: Error) => e)
    const bodies = server.items().flatMap((item) => (item.type === 'article' ? [item.body ?? ''] : []))
    const links = pulled instanceof Error ? {resolved: 0, linked: 0} : await chainLinks(target, bodies)
    const cell = (run: ScaleRun | Error) => (run instanceof Error ? `failed: ${run.message}` : describeRun(run))
    return [
      {bench: name, measure: 'push', value: cell(pushed), target: 'succeeds', met: !(pushed instanceof Error)},
      {
        bench: name,
        measure: 'pull into an empty folder',
        value: cell(pulled),
        target: 'succeeds',
        met: !(pulled instanceof Error)
      },
      {
        bench: name,
        measure: 'links: server bodies with an article link; pulled files whose link resolves',
        value: `${links.linked} / ${links.resolved} of ${length}`,
        target: `${length} / ${length}`,
        met: links.linked === length && links.resolved === length
      }
    ]
  } finally {
    await server.close()
    await rm(source, {recursive: true, force: true})
    await rm(target, {recursive: true, force: true})
  }
}

/**
 * The scale benchmark: each of `sizes` (ascending) measured on its own
 * server, growth between neighbouring sizes, then a chain of `chainLength`
 * (0: none).
 */
export async function benchScale(sizes: number[], chainLength: number): Promise<Row[]> {
  const measured: SizeRuns[] = []
  for (const articles of [...sizes].sort((a, b) => a - b)) {
    const size = await measureSize(articles)
    measured.push(size)
    console.log(`scale ${articles}: push ${describeRun(size.push)}; pull ${describeRun(size.pull)}`)
  }
  const rows = measured.flatMap(sizeRows)
  for (let i = 1; i < measured.length; i++) rows.push(...growthRows(measured[i - 1]!, measured[i]!))
  if (chainLength > 0) rows.push(...(await benchChain(chainLength)))
  return rows
}

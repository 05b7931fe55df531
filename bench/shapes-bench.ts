/**
 * The scale benchmark's other shapes (`scale-shapes.ts`): each tree pushed
 * to a fresh local server and pulled into an empty folder, each run in a
 * child process (`scale-runs.ts`), against issue 32's peak of 400 MB (what a
 * tree of 9,000 articles may take; every shape here is smaller or equal).
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {startServer} from '../src/server/index.js'
import type {Row} from './push-bench.js'
import {describeRun, markdownFiles, runInChild, type ScaleRun} from './scale-runs.js'
import {generateShape, shapeNames, type ShapeName} from './scale-shapes.js'

/** The peak RSS a push or pull of a shape may take (MB). */
const peakLimit = 400

/** The rows of one shape: push, pull, peak RSS. */
async function measureShape(shape: ShapeName, items: number): Promise<Row[]> {
  const source = await mkdtemp(path.join(tmpdir(), 'kbsync-shape-src-'))
  const target = await mkdtemp(path.join(tmpdir(), 'kbsync-shape-dst-'))
  const server = await startServer({port: 0, rateLimit: {limit: 10_000_000, windowSeconds: 600}})
  const name = `shape ${shape}`
  const failed = (error: unknown) => (error instanceof Error ? error : new Error(String(error)))
  try {
    const tree = await generateShape(source, shape, items)
    const pushed = await runInChild('push', source, server).catch(failed)
    const pulled = pushed instanceof Error ? pushed : await runInChild('pull', target, server).catch(failed)
    const files = pulled instanceof Error ? 0 : (await markdownFiles(target)).length
    const cell = (run: ScaleRun | Error) => (run instanceof Error ? `failed: ${run.message}` : describeRun(run))
    const peak = (run: ScaleRun | Error) => (run instanceof Error ? Infinity : run.maxRssMb)
    const bench = `${name} (${tree.articles} articles, ${(tree.bytes / 1e6).toFixed(1)} MB)`
    return [
      {bench, measure: 'push', value: cell(pushed), target: 'succeeds', met: !(pushed instanceof Error)},
      {
        bench,
        measure: 'pull into an empty folder',
        value: cell(pulled),
        target: 'succeeds',
        met: files >= tree.articles
      },
      {
        bench,
        measure: 'peak RSS, push / pull (child process)',
        value: `${peak(pushed).toFixed(0)} / ${peak(pulled).toFixed(0)} MB`,
        target: `<= ${peakLimit} MB`,
        met: Math.max(peak(pushed), peak(pulled)) <= peakLimit
      }
    ]
  } finally {
    await server.close()
    await rm(source, {recursive: true, force: true})
    await rm(target, {recursive: true, force: true})
  }
}

/**
 * Pushes and pulls each shape of `names` (every shape when empty) at about
 * `items` articles, one after the other (each run's memory is its own).
 */
export async function benchShapes(items: number, names: readonly string[] = []): Promise<Row[]> {
  const unknown = names.filter((name) => !(shapeNames as readonly string[]).includes(name))
  if (unknown.length > 0) throw new Error(`--shapes: no shape ${unknown.join(', ')} (known: ${shapeNames.join(', ')})`)
  const rows: Row[] = []
  for (const shape of shapeNames)
    if (names.length === 0 || names.includes(shape)) rows.push(...(await measureShape(shape, items)))
  return rows
}

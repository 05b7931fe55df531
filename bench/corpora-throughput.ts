/**
 * gfmToKb throughput on real documentation trees (the three corpora of
 * `../shared/corpora/`, or the folder `KBSYNC_CORPORA` names): every
 * `.md`/`.mdx` body converted with `gfmToKb`, against plain remark-parse +
 * remark-gfm + remark-stringify on the same bodies, in the same run. Prints
 * MB/s and the ratio of time per MB (target: <= 1.0x, no slower than the
 * plain pipeline, HTML conversion included).
 *
 * Run: `npm run build && node dist/bench/corpora-throughput.js [runs]`
 */
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {pathToFileURL} from 'node:url'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkStringify from 'remark-stringify'
import {unified} from 'unified'
import {gfmToKb} from '../src/dialect/index.js'
import {medianTime} from './dialect-roundtrip.js'

/** One document of a corpus: its path and its body (front matter left out, as the scan does). */
interface Body {
  path: string
  value: string
}

/** Where the corpora are: `KBSYNC_CORPORA`, else `../shared/corpora` beside the working directory. */
export function corporaRoot(): string {
  return resolve(process.env.KBSYNC_CORPORA ?? join(process.cwd(), '..', 'shared', 'corpora'))
}

function* markdownFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.') || name === 'node_modules') continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yield* markdownFiles(path)
    else if (/\.mdx?$/.test(name)) yield path
  }
}

/** The bodies of every Markdown file under `root`. */
export function readBodies(root: string): Body[] {
  return [...markdownFiles(root)].map((path) => ({
    path,
    value: readFileSync(path, 'utf8').replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, '')
  }))
}

/** Result of the benchmark: speeds in MB/s and the ratio of time per MB (kbsync / remark). */
export interface CorporaThroughput {
  files: number
  megabytes: number
  kbsync: number
  remark: number
  ratio: number
}

/** Runs the benchmark (`runs` timed passes over all bodies, median) and prints the figures. */
export function runCorporaThroughput(runs = 5, root = corporaRoot()): CorporaThroughput | undefined {
  let bodies: Body[]
  try {
    bodies = readBodies(root)
  } catch {
    console.log(`corpora throughput: no corpora at ${root} (set KBSYNC_CORPORA); skipped`)
    return undefined
  }
  const megabytes = bodies.reduce((sum, body) => sum + Buffer.byteLength(body.value), 0) / 1e6
  const plain = unified().use(remarkParse).use(remarkGfm).use(remarkStringify).freeze()
  const convertAll = () => bodies.map((body) => gfmToKb(body.value, {path: body.path}).markdown.length)
  const remarkAll = () => bodies.map((body) => String(plain.processSync(body.value)).length)
  // Warm both up, then alternate them so that load on a shared machine falls on both alike.
  convertAll()
  remarkAll()
  const times = {kbsync: [] as number[], remark: [] as number[]}
  for (let run = 0; run < runs; run++) {
    times.remark.push(medianTime('', remarkAll, 1))
    times.kbsync.push(medianTime('', convertAll, 1))
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  const kbsync = megabytes / (median(times.kbsync) / 1000)
  const remark = megabytes / (median(times.remark) / 1000)
  const ratio = remark / kbsync
  console.log(`Corpora throughput (${bodies.length} files, ${megabytes.toFixed(2)} MB, ${root})`)
  console.log(`remark + remark-gfm: median ${median(times.remark).toFixed(0)} ms, ${remark.toFixed(2)} MB/s`)
  console.log(`kbsync gfmToKb:      median ${median(times.kbsync).toFixed(0)} ms, ${kbsync.toFixed(2)} MB/s`)
  console.log(`ratio (time per MB, gfmToKb / remark-gfm): ${ratio.toFixed(2)}x (target <= 1.0x)`)
  return {files: bodies.length, megabytes, kbsync, remark, ratio}
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runCorporaThroughput(Number(process.argv[2] ?? 5))
}

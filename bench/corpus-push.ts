/**
 * The first push of each real docs tree (`../shared/corpora/`, or the folder
 * `KBSYNC_CORPORA` names) as an outside acceptance harness runs it: a copy
 * of the corpus committed to a fresh git repository, then
 * `kbsync push <folder> --broken-links=warn` in a process of its own
 * against the embedded local knowledge base, with a fresh `HOME`. Prints
 * wall time, CPU time (user + system, the child's own), peak resident
 * memory and the write requests the push reports, per corpus; the harness
 * kills a push after 15 s.
 *
 * Run: `npm run build && node dist/bench/run.js --only=corpus-push` (or
 * `node dist/bench/corpus-push.js [runs] [name,...]`).
 */
import {execFileSync, spawnSync} from 'node:child_process'
import {cpSync, existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {corporaRoot} from './corpora-throughput.js'
import type {Row} from './push-bench.js'

/** Each corpus and the folder of it that is pushed. */
export const corpusFolders: Readonly<Record<string, string>> = {
  'biome-docs': 'src/content/docs',
  'docsy-docs': 'docsy.dev/content/en',
  'gemini-cli-docs': '.',
  'jekyll-docs': '.',
  'mkdocs-docs': '.',
  'redux-docs': '.',
  'rust-by-example': 'src'
}

/** What the harness's time limit is, in ms. */
const harnessLimitMs = 15_000

/** One push of a corpus. */
export interface CorpusPush {
  wallMs: number
  cpuMs: number
  maxRssMb: number
  writes: number
  ok: boolean
}

const here = dirname(fileURLToPath(import.meta.url))
const bin = resolve(here, '..', 'src', 'cli', 'bin.js')
const usagePreload = pathToFileURL(join(here, 'corpus-push-usage.js')).href

/** A committed copy of `corpus` in a fresh temporary folder (kbsync publishes what git tracks). */
function committedCopy(corpus: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'kbsync-corpus-'))
  cpSync(join(corporaRoot(), corpus), copy, {recursive: true})
  const git = (...args: string[]) => execFileSync('git', args, {cwd: copy, stdio: 'ignore'})
  git('init', '-q')
  git('add', '-A')
  git('-c', 'user.email=bench@kbsync', '-c', 'user.name=bench', 'commit', '-qm', 'corpus', '--no-verify')
  return copy
}

/** Pushes a fresh committed copy of `corpus` once, through the CLI, and measures it. */
export function pushCorpus(corpus: string): CorpusPush {
  const copy = committedCopy(corpus)
  const home = mkdtempSync(join(tmpdir(), 'kbsync-home-'))
  const usageFile = join(home, 'usage.json')
  try {
    const started = performance.now()
    const child = spawnSync(
      process.execPath,
      ['--import', usagePreload, bin, 'push', join(copy, corpusFolders[corpus]!), '--broken-links=warn'],
      {cwd: copy, env: {...process.env, HOME: home, KBSYNC_USAGE_FILE: usageFile}, encoding: 'utf8'}
    )
    const wallMs = performance.now() - started
    const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as {
      userCPUTime: number
      systemCPUTime: number
      maxRSS: number
    }
    const writes = Number(/(\d+) write requests?/.exec(child.stdout)?.[1] ?? Number.NaN)
    return {
      wallMs,
      cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
      maxRssMb: usage.maxRSS / 1024,
      writes,
      ok: child.status === 0
    }
  } finally {
    rmSync(copy, {recursive: true, force: true})
    rmSync(home, {recursive: true, force: true})
  }
}

/** The median of `values` (sorted copy). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** `runs` pushes of each corpus of `names` found on this machine: one row per corpus, medians (and the range of wall times). */
export function benchCorpusPush(runs: number, names: readonly string[] = Object.keys(corpusFolders)): Row[] {
  const rows: Row[] = []
  for (const corpus of names) {
    if (!existsSync(join(corporaRoot(), corpus))) continue
    const pushes = Array.from({length: runs}, () => pushCorpus(corpus))
    const walls = pushes.map((push) => push.wallMs)
    const wall = median(walls)
    const ok = pushes.every((push) => push.ok)
    rows.push({
      bench: `corpus push ${corpus}`,
      measure: 'first push --broken-links=warn: wall (range), CPU, peak RSS, writes',
      value:
        `${(wall / 1000).toFixed(1)} s (${(Math.min(...walls) / 1000).toFixed(1)}-${(Math.max(...walls) / 1000).toFixed(1)}), ` +
        `CPU ${(median(pushes.map((push) => push.cpuMs)) / 1000).toFixed(1)} s, ` +
        `${median(pushes.map((push) => push.maxRssMb)).toFixed(0)} MB, ${pushes[0]!.writes} writes${ok ? '' : ', FAILED'}`,
      target: `< ${harnessLimitMs / 1000} s`,
      met: ok && wall < harnessLimitMs
    })
  }
  return rows
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const names = process.argv[3]?.split(',')
  for (const row of benchCorpusPush(Number(process.argv[2] ?? 3), names)) console.log(`${row.bench}: ${row.value}`)
}

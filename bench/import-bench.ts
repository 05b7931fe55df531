/**
 * Import time of the package's entries (issue 33): each entry imported by
 * name (`kbsync/dialect`, as a user imports it: the package resolves itself
 * through its `exports`) in a fresh Node process, against remark-parse +
 * remark-gfm imported the same way in the same run, the processes
 * alternating; the median of `runs`. Then, optionally, the installed size of
 * a library-only install of the packed package (`--omit=optional`) against
 * the default install.
 */
import {execFileSync} from 'node:child_process'
import {cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import type {Row} from './push-bench.js'

const repo = path.resolve(fileURLToPath(new URL('../..', import.meta.url)))
const baseline = ['remark-parse', 'remark-gfm']
const entries: Array<{name: string; target?: number}> = [
  {name: 'kbsync/dialect', target: 2},
  {name: 'kbsync/plugins'},
  {name: 'kbsync'}
]

/** Milliseconds a fresh process takes to import `specifiers`, one after the other. */
function importMs(specifiers: string[]): number {
  const code = `const t = performance.now(); for (const s of ${JSON.stringify(specifiers)}) await import(s); console.log(performance.now() - t)`
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', code], {cwd: repo, encoding: 'utf8'}))
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** One row per entry: its median import time and its ratio to remark-parse + remark-gfm's. */
export function benchImport(runs: number): Row[] {
  const times = new Map<string, number[]>([
    ['baseline', []],
    ...entries.map(({name}): [string, number[]] => [name, []])
  ])
  // Warm the file cache once, so the first measured process does not read from disk.
  for (const {name} of entries) importMs([name])
  importMs(baseline)
  for (let run = 0; run < runs; run++) {
    times.get('baseline')!.push(importMs(baseline))
    for (const {name} of entries) times.get(name)!.push(importMs([name]))
  }
  const base = median(times.get('baseline')!)
  return entries.map(({name, target}) => {
    const ms = median(times.get(name)!)
    const ratio = ms / base
    return {
      bench: `import('${name}')`,
      measure: `fresh process, median of ${runs}, vs remark-parse + remark-gfm`,
      value: `${ratio.toFixed(2)}x (${ms.toFixed(0)} vs ${base.toFixed(0)} ms)`,
      target: target === undefined ? '' : `<= ${target}x`,
      met: target === undefined ? null : ratio <= target
    }
  })
}

/** Megabytes under `dir`. */
const megabytes = (dir: string) => Number(execFileSync('du', ['-sk', dir], {encoding: 'utf8'}).split('\t')[0]) / 1024

/** The installed size of the packed package in a fresh project, library-only (`--omit=optional`) and by default. */
export function benchInstallSize(): Row[] {
  const scratch = mkdtempSync(path.join(tmpdir(), 'kbsync-install-'))
  const npm = (args: string[], cwd: string) =>
    execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {cwd, encoding: 'utf8'})
  try {
    const stage = path.join(scratch, 'stage')
    mkdirSync(stage)
    for (const file of ['package.json', 'README.md']) cpSync(path.join(repo, file), path.join(stage, file))
    cpSync(path.join(repo, 'dist'), path.join(stage, 'dist'), {recursive: true})
    const tarball = path.join(scratch, npm(['pack', '--ignore-scripts', '--pack-destination', scratch], stage).trim())
    const sizes = (['--omit=optional', '--include=optional'] as const).map((flag) => {
      const project = path.join(scratch, flag.slice(2).replace('=', '-'))
      mkdirSync(project)
      writeFileSync(path.join(project, 'package.json'), JSON.stringify({name: 'consumer', private: true}))
      npm(['install', '--prefer-offline', '--ignore-scripts', flag, tarball], project)
      return megabytes(path.join(project, 'node_modules'))
    })
    return [
      {
        bench: 'installed size',
        measure: 'node_modules of a fresh project: library-only (--omit=optional) vs default',
        value: `${sizes[0]!.toFixed(0)} MB vs ${sizes[1]!.toFixed(0)} MB`,
        target: '',
        met: null
      }
    ]
  } finally {
    rmSync(scratch, {recursive: true, force: true})
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = [
    ...benchImport(Number(process.argv[2] ?? 9)),
    ...(process.argv.includes('--size') ? benchInstallSize() : [])
  ]
  for (const row of rows) console.log(`${row.bench}: ${row.value} ${row.target}`)
}

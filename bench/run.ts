/**
 * `npm run bench`: every benchmark, each against a baseline measured in the
 * same run, then one table of figures, ratios and targets.
 *
 * `--quick` scales the trees down (200 / 1,000 articles, 10 watch edits) for
 * a fast check; the figures in RESULTS.md come from a full run.
 */
import os from 'node:os'
import {meetsTargets, runAdversarial} from './adversarial.js'
import {runCorporaThroughput} from './corpora-throughput.js'
import {benchCorpusPush} from './corpus-push.js'
import {runDialectRoundTrip} from './dialect-roundtrip.js'
import {benchCheckLinks} from './check-links-bench.js'
import {benchBurstDrops, benchRateDrops} from './drops-bench.js'
import {benchInitialPush, benchLargeTree, type Row} from './push-bench.js'
import {benchPull} from './pull-bench.js'
import {benchPreview} from './preview-bench.js'
import {benchScale} from './scale-bench.js'
import {benchShapes} from './shapes-bench.js'
import {benchHighlight} from './highlight-bench.js'
import {benchDiagrams} from './diagrams-bench.js'
import {benchImport, benchInstallSize} from './import-bench.js'
import {benchWatch} from './watch-bench.js'

const quick = process.argv.includes('--quick')
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length)
const wanted = (name: string) => !only || only.split(',').includes(name)
/** A `--name=1000,3000` flag as numbers, or undefined. */
const numbers = (name: string) =>
  process.argv
    .find((arg) => arg.startsWith(`--${name}=`))
    ?.slice(name.length + 3)
    .split(',')
    .map(Number)

const rows: Row[] = []
const started = Date.now()
console.log(
  `kbsync benchmarks${quick ? ' (--quick)' : ''}: Node ${process.version}, ${os.cpus().length} cores, ${new Date().toISOString()}\n`
)

// The benchmarks that time child processes run first: the dialect round trip leaves this process with
// a large heap, and collecting it while the process idles can take a core from the push being measured.
// Import times first: fresh processes, before this one holds a large heap.
if (wanted('import')) rows.push(...benchImport(quick ? 5 : 15))
if (wanted('install')) rows.push(...benchInstallSize())
if (wanted('push')) rows.push(...(await benchInitialPush(quick ? 200 : 1000, quick ? 40 : 200, 20, 8, quick ? 1 : 3)))
if (wanted('drops')) {
  rows.push(...(await benchBurstDrops(quick ? 200 : 1000, quick ? 40 : 200, 20, 8, quick ? 1 : 3)))
  rows.push(...(await benchRateDrops(quick ? 200 : 1000, quick ? 40 : 200, 20, quick ? 40 : 100)))
}
if (wanted('corpus-push')) rows.push(...benchCorpusPush(quick ? 1 : 3))
if (wanted('pull')) rows.push(...(await benchPull(1000, quick ? 40 : 200, 20, 8, quick ? 1 : 3)))
if (wanted('large')) rows.push(...(await benchLargeTree(quick ? 1000 : 5000)))
if (wanted('scale')) {
  const sizes = numbers('sizes') ?? (quick ? [1000, 3000] : [3000, 9000, 30_000])
  rows.push(...(await benchScale(sizes, numbers('chain')?.[0] ?? 12_000)))
}
if (wanted('shapes')) {
  const names = process.argv.find((arg) => arg.startsWith('--shapes='))?.slice('--shapes='.length)
  rows.push(...(await benchShapes(numbers('items')?.[0] ?? (quick ? 300 : 3000), names ? names.split(',') : [])))
}
if (wanted('watch')) {
  rows.push(...(await benchWatch(quick ? 10 : 50, 200)))
  rows.push(...(await benchWatch(quick ? 10 : 20, 200, 1000)))
}
if (wanted('links')) rows.push(...(await benchCheckLinks(quick ? 200 : 1000)))
if (wanted('preview')) rows.push(...(await benchPreview(1000, 10)))
if (wanted('highlight')) rows.push(...benchHighlight(1000))
if (wanted('diagrams')) rows.push(...(await benchDiagrams(quick ? 50 : 200, quick ? 5 : 20)))
if (wanted('dialect')) {
  const dialect = runDialectRoundTrip(quick ? 300_000 : 1_000_000, 3)
  rows.unshift({
    bench: 'dialect round trip',
    measure: 'time per MB vs remark + remark-gfm',
    value: `${dialect.ratio.toFixed(2)}x (${dialect.dialect.toFixed(2)} vs ${dialect.gfm.toFixed(2)} MB/s)`,
    target: '<= 1.3x',
    met: dialect.ratio <= 1.3
  })
}
if (wanted('corpora')) {
  const corpora = runCorporaThroughput(quick ? 2 : 5)
  if (corpora) {
    rows.push({
      bench: 'gfmToKb throughput on the three corpora',
      measure: `time per MB vs remark + remark-gfm (${corpora.files} files)`,
      value: `${corpora.ratio.toFixed(2)}x (${corpora.kbsync.toFixed(2)} vs ${corpora.remark.toFixed(2)} MB/s)`,
      target: '<= 1.0x',
      met: corpora.ratio <= 1
    })
  }
}
if (wanted('adversarial')) {
  // Last: it leaves a large heap too. One row per shape; the per-size times are in the table it prints.
  for (const result of runAdversarial(quick ? 1 : 3)) {
    rows.push({
      bench: `adversarial ${result.shape}`,
      measure: 'growth exponent; parseKb / remark-parse at the largest size',
      value: `${result.kbsyncExponent.toFixed(2)} (remark ${result.remarkExponent.toFixed(2)}); ${result.ratio.toFixed(2)}x`,
      target: '<= 1.2; <= 3x',
      met: meetsTargets(result)
    })
  }
}

const header = ['benchmark', 'measure', 'value', 'target', 'met']
const lines = rows.map((row) => [
  row.bench,
  row.measure,
  row.value,
  row.target,
  row.met === null ? '' : row.met ? 'yes' : 'NO'
])
console.log('\n| ' + header.join(' | ') + ' |\n|' + header.map(() => ' --- ').join('|') + '|')
for (const line of lines) console.log('| ' + line.join(' | ') + ' |')
console.log(`\nTotal ${((Date.now() - started) / 1000).toFixed(0)} s`)

/**
 * Adversarial benchmark of the dialect (issue 22): bodies made of one
 * unclosed or nested construct repeated, each at four sizes, `parseKb`
 * against remark-parse (mdast-util-from-markdown, no extensions) on the
 * same text in the same run. Per shape it prints the growth exponent of
 * each (the log-log slope of time against size over the four sizes: 1 is
 * linear, 2 quadratic) and the ratio of their times at the largest size.
 * Targets: exponent <= 1.2 and ratio <= 3x.
 *
 * A line of container markers (`>` x n, `- ` x n) costs remark-parse n²
 * (1.7 s for 20,000 `>`, 44 s for 20,000 `- `): 160 KB of them would take
 * it minutes. kbsync escapes the marker past the nesting limit before it
 * parses (plugins/container-depth.ts), so it reads them at every size; their
 * baseline is remark-parse on text of the same size and construct that it
 * reads in linear time (`baselineUnit`: lines of 100 `>`; a flat list), as
 * remark-parse on the same text cannot finish. The `>` row at an eighth of the sizes keeps the like-for-like
 * comparison where remark-parse still can.
 *
 * Run: `npm run build --silent && node dist/bench/adversarial.js`
 * (or `node dist/bench/run.js --only=adversarial`).
 */
import {pathToFileURL} from 'node:url'
import {fromMarkdown} from 'mdast-util-from-markdown'
import {parseKb} from '../src/dialect/index.js'
import {readYaml} from '../src/trust/index.js'
import {medianTime} from './dialect-roundtrip.js'

/** One adversarial shape: a unit repeated up to a size. */
export interface Shape {
  name: string
  unit: string
  /** Sizes in bytes. */
  sizes: readonly number[]
  /** What remark-parse reads instead, when it cannot read `unit` repeated in reasonable time. */
  baselineUnit?: string
  /** No remark-parse baseline (the sizes are past what it reads in reasonable memory): the exponent alone is the target. */
  noBaseline?: true
}

const kilobytes = [20_000, 40_000, 80_000, 160_000] as const

/** The shapes of findings 6 and 7 and their relatives. */
export const shapes: readonly Shape[] = [
  {name: '`<u>a` x n', unit: '<u>a', sizes: kilobytes},
  {name: '`<mark data-color="red">a` x n', unit: '<mark data-color="red">a', sizes: kilobytes},
  {name: '`<details>` x n (one line)', unit: '<details>', sizes: kilobytes},
  {name: '`<details>` x n (a block each)', unit: '<details>\n\n', sizes: kilobytes},
  {name: '`<details><summary>` x n', unit: '<details><summary>', sizes: kilobytes},
  {name: 'hint-block openers x n', unit: '<div data-node="hintBlock" data-color="blue">\ntext\n', sizes: kilobytes},
  {
    name: '`<a data-node="anchorLink" data-id="x">` x n',
    unit: '<a data-node="anchorLink" data-id="x">',
    sizes: kilobytes
  },
  {name: '`>` x n (an eighth of the sizes)', unit: '>', sizes: kilobytes.map((size) => size / 8)},
  {name: '`>` x n (baseline: lines of 100 `>`)', unit: '>', sizes: kilobytes, baselineUnit: '>'.repeat(100) + ' a\n'},
  // Not lines of nested items: remark-parse is quadratic in the number of nested lists a list holds too.
  {name: '`- ` x n (baseline: a flat list)', unit: '- ', sizes: kilobytes, baselineUnit: '- a\n'},
  // Issue 28, finding 5: what micromark itself reads in quadratic time (80 KB of `*a` took over a minute in
  // remark-parse), kept as text by the parse budget (src/trust/parse-budget.ts); the baseline is plain text.
  ...['*a', '**a*', '[a]', 'a_ ', '~a'].map((unit) => ({
    name: `\`${unit}\` x n (baseline: plain text)`,
    unit,
    sizes: kilobytes,
    baselineUnit: 'ab'
  })),
  {name: 'a list nested by indentation (baseline: a flat list)', unit: '', sizes: kilobytes, baselineUnit: '- a\n'},
  {name: 'a body of 2.5 to 20 MB (no baseline)', unit: 'word ', sizes: [2.5e6, 5e6, 10e6, 20e6], noBaseline: true}
]

/** A list nested one level deeper on each line, to about `size` bytes. */
function indentedList(size: number): string {
  const lines: string[] = []
  for (let level = 0, length = 0; length < size; level++) {
    lines.push('  '.repeat(level) + '- a')
    length += 2 * level + 4
  }
  return lines.join('\n') + '\n'
}

/** One measured shape. */
export interface ShapeResult {
  shape: string
  /** Median times at each size, in ms. */
  kbsync: number[]
  remark: number[]
  kbsyncExponent: number
  remarkExponent: number
  /** kbsync / remark at the largest size. */
  ratio: number
}

/**
 * The log-log slope of `times` against `sizes`, fitted by least squares
 * over all sizes (less at the mercy of one noisy small size than the slope
 * from the first to the last).
 */
function exponent(sizes: readonly number[], times: number[]): number {
  const xs = sizes.map(Math.log)
  const ys = times.map((time) => Math.log(Math.max(time, 0.01)))
  const mean = (list: number[]) => list.reduce((sum, value) => sum + value, 0) / list.length
  const [x, y] = [mean(xs), mean(ys)]
  let covariance = 0
  let variance = 0
  for (let index = 0; index < xs.length; index++) {
    covariance += (xs[index] - x) * (ys[index] - y)
    variance += (xs[index] - x) ** 2
  }
  return covariance / variance
}

function repeatTo(unit: string, size: number): string {
  return unit === '' ? indentedList(size) : unit.repeat(Math.ceil(size / unit.length))
}

/** Measure one shape at each of its sizes. */
export function measureShape(shape: Shape, runs = 3): ShapeResult {
  const kbsync: number[] = []
  const remark: number[] = []
  for (const size of shape.sizes) {
    const value = repeatTo(shape.unit, size)
    const baseline = shape.baselineUnit ? repeatTo(shape.baselineUnit, size) : value
    // Warm both up on this shape first, so the smallest size is not timed cold.
    if (kbsync.length === 0) {
      parseKb(value)
      if (!shape.noBaseline) fromMarkdown(baseline)
    }
    remark.push(shape.noBaseline ? NaN : medianTime(baseline, fromMarkdown, runs))
    kbsync.push(medianTime(value, parseKb, runs))
  }
  const last = shape.sizes.length - 1
  return {
    shape: shape.name,
    kbsync,
    remark,
    kbsyncExponent: exponent(shape.sizes, kbsync),
    remarkExponent: exponent(shape.sizes, remark),
    ratio: kbsync[last] / remark[last]
  }
}

/** Whether a result meets the targets (for `>`, the exponent is held against remark's own). */
export function meetsTargets(result: ShapeResult): boolean {
  // Without a baseline (NaN): the exponent, or (times of a few ms, whose exponent is noise) 100 ms at the largest size.
  if (Number.isNaN(result.remarkExponent)) return result.kbsyncExponent <= 1.2 || result.kbsync.at(-1)! <= 100
  const remark = result.remarkExponent + 0.2
  return result.kbsyncExponent <= Math.max(1.2, remark) && result.ratio <= 3
}

/** Run every shape, print one Markdown table, and return the results. */
export function runAdversarial(runs = 3): ShapeResult[] {
  console.log(`Adversarial dialect bodies (Node ${process.version}), medians of ${runs} runs, times in ms\n`)
  console.log('| shape | sizes (KB) | parseKb | remark-parse | exponent (parseKb / remark) | ratio at largest | met |')
  console.log('| --- | --- | --- | --- | --- | --- | --- |')
  const results: ShapeResult[] = []
  for (const shape of shapes) {
    const result = measureShape(shape, runs)
    results.push(result)
    const sizes = shape.sizes.map((size) => size / 1000).join(' / ')
    const times = (list: number[]) => list.map((time) => time.toFixed(0)).join(' / ')
    console.log(
      `| ${result.shape} | ${sizes} | ${times(result.kbsync)} | ${times(result.remark)} | ` +
        `${result.kbsyncExponent.toFixed(2)} / ${result.remarkExponent.toFixed(2)} | ${result.ratio.toFixed(2)}x | ${meetsTargets(result) ? 'yes' : 'NO'} |`
    )
  }
  runYaml()
  return results
}

/** YAML bombs (issue 28, finding 5) through `readYaml`, at four sizes each: times in ms and what it answers. */
export function runYaml(): void {
  const bomb = (levels: number) =>
    Array.from({length: levels}, (_, level) =>
      level === 0
        ? 'l0: &l0 [x,x,x,x,x,x,x,x,x]'
        : `l${level}: &l${level} [${Array(9)
            .fill(`*l${level - 1}`)
            .join(',')}]`
    ).join('\n')
  const shapes: Array<[string, (n: number) => string, number[]]> = [
    ['alias bomb (9^n nodes)', bomb, [4, 8, 16, 32]],
    ['flow brackets nested n deep', (n) => 'a: ' + '['.repeat(n), [1_000, 5_000, 20_000, 100_000]],
    [
      'n keys in one mapping',
      (n) => Array.from({length: n}, (_, i) => `k${i}: 1`).join('\n'),
      [2_500, 5_000, 10_000, 20_000]
    ]
  ]
  console.log('\n| YAML shape | n | readYaml (ms) | answer |\n| --- | --- | --- | --- |')
  for (const [name, make, sizes] of shapes) {
    for (const n of sizes) {
      const text = make(n)
      const started = performance.now()
      const read = readYaml(text)
      const answer = read.ok ? 'read' : `line ${read.line}: ${read.message.slice(0, 60)}`
      console.log(`| ${name} | ${n} | ${(performance.now() - started).toFixed(0)} | ${answer} |`)
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) runAdversarial(Number(process.argv[2] ?? 3))

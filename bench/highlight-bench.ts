/**
 * Code highlighting in the preview (`src/preview/highlight.ts`): a page
 * holding one 1,000-line TypeScript block rendered by `kbToHtml` with the
 * preview's highlighter, cold (the grammar loaded and its patterns compiled
 * in this process), warm (another block, tokenised), and again (from the
 * cache, as a save that leaves the block alone re-renders the page), against
 * the same page rendered plain in the same run.
 */
import {kbToHtml} from '../src/dialect/index.js'
import {highlightCode} from '../src/preview/highlight.js'
import type {Row} from './push-bench.js'

/** Lines of TypeScript as written in the wild: imports, types, classes, template strings, comments, regexes. */
const sample = [
  "import {readFile} from 'node:fs/promises'",
  'export interface Item<T extends object = Record<string, unknown>> { id: string; value?: T; tags: readonly string[] }',
  '/** Reads one item; undefined when the file is missing. */',
  'export async function load(path: string, options: {strict?: boolean} = {}): Promise<Item | undefined> {',
  "  const text = await readFile(path, 'utf8').catch(() => undefined) // a missing file is no error",
  '  if (text === undefined) return undefined',
  '  const match = /^id: (\\w+)$/m.exec(text)',
  '  return match ? {id: match[1]!, tags: text.split(/\\s+/).filter(Boolean)} : options.strict ? fail(`no id in ${path}`) : undefined',
  '}',
  'class Cache<K, V> extends Map<K, V> { #hits = 0; override get(key: K): V | undefined { this.#hits++; return super.get(key) } }',
  'const total = [1, 2, 3].reduce((sum, n) => sum + n * 0x10, 0) satisfies number',
  'enum Mode { Plain = 1, Fancy = 2 }'
]

/** A `lines`-line TypeScript block, `salt` making it distinct from any other. */
function tsBlock(lines: number, salt: string): string {
  const out = [`// ${salt}`]
  for (let i = 0; out.length < lines; i++) out.push(sample[i % sample.length]!)
  return '```ts\n' + out.join('\n') + '\n```\n'
}

function msOf(run: () => unknown): number {
  return timed(run).wall
}

/**
 * Wall and CPU time (ms) of `run`. On a machine others share, the wall time
 * counts their work too; the CPU time of this process is the cost itself.
 */
function timed(run: () => unknown): {wall: number; cpu: number} {
  const started = performance.now()
  const cpu = process.cpuUsage()
  run()
  const used = process.cpuUsage(cpu)
  return {wall: performance.now() - started, cpu: (used.user + used.system) / 1000}
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** The rows of the highlighting benchmark on a `lines`-line block. */
export function benchHighlight(lines = 1000, runs = 5): Row[] {
  const page = `# Code\n\n${tsBlock(lines, 'first')}`
  const other = `# Code\n\n${tsBlock(lines, 'second')}`
  const plain = median(Array.from({length: runs}, () => msOf(() => kbToHtml(page))))
  const cold = timed(() => kbToHtml(page, {highlight: highlightCode}))
  const warm = timed(() => kbToHtml(other, {highlight: highlightCode}))
  const cached = median(Array.from({length: runs}, () => msOf(() => kbToHtml(page, {highlight: highlightCode}))))
  const bench = `preview highlight, one ${lines}-line ts block`
  const both = (t: {wall: number; cpu: number}) => `${t.cpu.toFixed(0)} ms CPU (${t.wall.toFixed(0)} ms wall)`
  console.log(
    `highlight: ${lines} lines plain ${plain.toFixed(1)} ms, cold ${both(cold)}, warm ${both(warm)}, cached ${cached.toFixed(1)} ms`
  )
  return [
    {
      bench,
      measure: 'first page with the block (grammar loaded, patterns compiled)',
      value: `${both(cold)}; plain ${plain.toFixed(1)} ms`,
      target: '< 1,500 ms CPU',
      met: cold.cpu < 1500
    },
    {
      bench,
      measure: 'a page with another block (grammar ready)',
      value: `${both(warm)}, ${(warm.wall / plain).toFixed(1)}x plain`,
      target: '< 1,000 ms CPU',
      met: warm.cpu < 1000
    },
    {
      bench,
      measure: 'the page again (block from the cache)',
      value: `${cached.toFixed(1)} ms, ${(cached / plain).toFixed(2)}x plain`,
      target: '<= 2x plain',
      met: cached <= 2 * plain
    }
  ]
}

/**
 * A long table or list is parsed in slices (issue 32: one article of a
 * 20,000-row table took 700 MB to convert, 1.5 GB to pull): the tree, its
 * positions and what the parse recorded are those of the whole parse, and
 * the memory of a conversion is bounded by a multiple of the source.
 */
import {spawnSync} from 'node:child_process'
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {takeKept} from '../../plugins/transform/kept.js'
import {takeKbProblems} from '../../plugins/index.js'
import {gfmToKb, kbToGfm, parseKb} from '../../src/dialect/index.js'
import {parseDialect} from '../../src/dialect/parse.js'
import {parseInSlices, type SliceLimits} from '../../src/dialect/slices/index.js'
import {builtFile} from '../built.js'

// Every run of three middle lines and more is sliced, two lines a slice: the seams are everywhere.
const small: SliceLimits = {minimumSource: 0, minimumMiddle: 3, sliceLines: 2}

const cellText = fc.constantFrom(
  'a',
  'two words',
  '`code`',
  '**strong**',
  '<u>under</u>',
  'a<br>b',
  '<mark>open',
  '</u>',
  'a \\| b',
  '[link](https://e.com/x)',
  '![i](i.png)',
  '',
  '~~gone~~',
  '*',
  '<details>'
)
const row = fc.array(cellText, {minLength: 0, maxLength: 4}).map((cells) => `| ${cells.join(' | ')} |`)
const table = fc
  .tuple(
    fc.constantFrom('| a | b | c |', '| a |', '|a|b|'),
    fc.constantFrom('| --- | :-: | --: |', '|-|', '| :-- | - |')
  )
  .chain(([header, delimiter]) =>
    fc.array(row, {minLength: 4, maxLength: 14}).map((rows) => [header, delimiter, ...rows].join('\n'))
  )
const itemText = fc.constantFrom(
  'item',
  '- - -',
  '[ ] task',
  '# heading',
  '> quoted',
  '- nested',
  '`code` <u>x</u>',
  '<mark>open',
  '```js',
  '***',
  '<div>'
)
const list = fc
  .tuple(fc.constantFrom('- ', '* ', '1. ', '2) '), fc.array(itemText, {minLength: 4, maxLength: 14}))
  .map(([marker, items]) => items.map((text) => marker + text).join('\n'))
const around = fc.constantFrom(
  '',
  'Paragraph.',
  'lazy line',
  '# Title',
  '```\n| in | code |\n```',
  '> quote',
  '<details>',
  '</details>',
  '---',
  'row without pipe'
)
const document = fc
  .array(fc.tuple(around, fc.oneof(table, list), fc.constantFrom('\n', '\n\n')), {minLength: 1, maxLength: 3})
  .chain((parts) =>
    around.map(
      (last) => parts.map(([before, run, gap]) => `${before}${before ? '\n' : ''}${run}${gap}`).join('') + last
    )
  )

/** The tree of a parse as plain data, with what it recorded (problems in document order). */
function recorded(tree: ReturnType<typeof parseDialect>) {
  const problems = takeKbProblems(tree).map((problem) => JSON.stringify(problem))
  return {tree: JSON.parse(JSON.stringify(tree)) as unknown, problems: problems.sort(), kept: takeKept(tree)}
}

describe('parsing long runs in slices', () => {
  it('makes the tree, positions and records of the whole parse', () => {
    fc.assert(
      fc.property(document, (source) => {
        expect(recorded(parseInSlices(source, parseDialect, small))).toEqual(recorded(parseDialect(source)))
      }),
      {numRuns: 300}
    )
  })

  it('parses each run of a document in slices, the document once without their middles', () => {
    const rows = (n: number) => Array.from({length: n}, (_, i) => `| ${i} | <u>x</u> |`).join('\n')
    const items = Array.from({length: 7}, (_, i) => `- item ${i}`).join('\n')
    const source = `Para\n\n| a | b |\n| - | - |\n${rows(6)}\nrow without pipe\n\n${items}\nlazy\n\n| c |\n|:-|\n${rows(5)}\n`
    const parsed: string[] = []
    const tree = parseInSlices(source, (part) => (parsed.push(part), parseDialect(part)), small)
    expect(recorded(tree)).toEqual(recorded(parseDialect(source)))
    // The document, then the table's 5 middle rows in 3 slices, the list's 5 middle items in 3, the second table's 4 in 2.
    expect(parsed.length).toBe(1 + 3 + 3 + 2)
    expect(parsed[0]).not.toContain('| 2 |')
  })

  it('keeps a table of 3,000 rows (sliced by the default limits) exact through the round trip', () => {
    const rows = Array.from({length: 3000}, (_, n) => `| r${n} | ${n * 7} | <u>cell</u> ${n} |`)
    const source = `# Table\n\n| a | b | c |\n| --- | :-: | --: |\n${rows.join('\n')}\n\nAfter.\n`
    expect(gfmToKb(source).markdown).toBe(source)
    expect(kbToGfm(source).markdown).toBe(source)
    const table = parseKb(source).children[1]
    expect(table?.type === 'table' && table.children.length).toBe(3001)
    expect(table?.position?.end).toEqual({line: 3004, column: rows.at(-1)!.length + 1, offset: source.length - 9})
  })
})

/** Runs `script` (an ES module) in a child process with at most `heapMb` of old space; its exit code and output. */
function withHeap(heapMb: number, script: string) {
  const child = spawnSync(process.execPath, [`--max-old-space-size=${heapMb}`, '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 110_000
  })
  return {status: child.status, out: child.stdout.trim(), err: child.stderr.slice(-400)}
}

describe('the memory of converting a long table or list', () => {
  // A 10,000-row table is 0.35 MB, a 15,000-item list 0.36 MB: a whole parse held some 25 KB a row (a heap of 330 MB
  // and more: it ran out of memory under 128 MB); in slices the heap holds the tree and the text, about 60 bytes a byte.
  const dialect = JSON.stringify(builtFile('src/dialect/index.js'))
  const shapes = {
    table:
      "'| a | b | c |\\n| --- | --- | --- |\\n' + Array.from({length: 10000}, (_, n) => `| r${n} | ${n * 7} | cell ${n} text |`).join('\\n') + '\\n'",
    list: "Array.from({length: 15000}, (_, n) => `- item ${n} of the list`).join('\\n') + '\\n'"
  }
  for (const [shape, expression] of Object.entries(shapes))
    it(`converts a long ${shape} both ways within a heap of 128 MB`, () => {
      const script = `const {gfmToKb, kbToGfm} = await import(${dialect}); const source = ${expression};
        const kb = gfmToKb(source).markdown; console.log(kb === source && kbToGfm(kb).markdown === source)`
      expect(withHeap(128, script)).toMatchObject({status: 0, out: 'true'})
    }, 120_000)
})

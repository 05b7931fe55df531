/**
 * What a run prints of its diagnostics (`diagnosticLines`, a pure function):
 * every error in full and first, warnings grouped by rule within one screen
 * and never more lines than files with warnings, `verbose` lists each, infos
 * one line per rule; a property test that no error is ever dropped and that
 * the counts add up.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import type {Diagnostic} from '../../src/local/diagnostic.js'
import {diagnosticLines} from '../../src/cli/output/diagnostic-lines.js'
import {formatDiagnostic} from '../../src/cli/output/format.js'

const deep = (file: string, line: number): Diagnostic => ({
  severity: 'warning',
  file,
  line,
  column: 1,
  message: 'Heading level 4 is not supported by the platform; written as level 3.',
  rule: 'kb-heading-depth'
})
const missing = (file: string, line: number): Diagnostic => ({
  severity: 'error',
  file,
  line,
  column: 3,
  message: `Link target \`x${line}.md\` not found`,
  hint: 'fix the path',
  rule: 'missing-link-target'
})
const comment = (file: string, line: number): Diagnostic => ({
  severity: 'info',
  file,
  line,
  column: 1,
  message: 'HTML comment left out of the body (readers never saw it).',
  rule: 'kb-html-comment'
})

/** `n` files `d0.md` … with `perFile` diagnostics each from `make`. */
function many(make: (file: string, line: number) => Diagnostic, files: number, perFile: number): Diagnostic[] {
  return Array.from({length: files * perFile}, (_, i) => make(`d${Math.floor(i / perFile)}.md`, (i % perFile) + 1))
}

describe('diagnosticLines', () => {
  it('lists every error in full before any warning', () => {
    const errors = many(missing, 4, 2)
    const lines = diagnosticLines([...many(deep, 30, 5), ...errors])
    expect(lines.slice(0, errors.length)).toEqual(errors.map((d) => formatDiagnostic(d)))
    expect(lines[0]).toBe('d0.md:1:3: error: Link target `x1.md` not found (fix the path) [missing-link-target]')
  })

  it('groups warnings by rule: the count, the message once, three places, then how many more in how many files', () => {
    const lines = diagnosticLines(many(deep, 30, 5))
    expect(lines).toEqual([
      '150 warnings in 30 files, by rule (--verbose lists each):',
      'warning [kb-heading-depth] ×150: Heading level 4 is not supported by the platform; written as level 3.',
      '    d0.md:1, d0.md:2, d0.md:3 and 147 more in 30 files'
    ])
  })

  it('keeps the warning section within 20 lines and within the number of files with warnings, whatever the number of rules', () => {
    const rules = Array.from({length: 40}, (_, r) =>
      Array.from({length: 60}, (_, i): Diagnostic => ({
        severity: 'warning',
        file: `f${i}.md`,
        line: r + 1,
        message: `problem ${r}`,
        rule: `rule-${r}`
      }))
    ).flat()
    const wide = diagnosticLines(rules)
    expect(wide).toHaveLength(20)
    expect(wide[0]).toBe('2400 warnings in 60 files, by rule (--verbose lists each):')
    expect(wide.at(-1)).toMatch(/^and 22 more rules \(1320 warnings\): rule-18 ×60, rule-19 ×60, .*, …$/)
    // Three documents: never more than three warning lines.
    const few = diagnosticLines(rules.filter((d) => ['f0.md', 'f1.md', 'f2.md'].includes(d.file!)))
    expect(few.length).toBeLessThanOrEqual(3)
    // One document with warnings of two rules: one line, which names both.
    const one = diagnosticLines([
      deep('a.md', 5),
      deep('a.md', 9),
      {severity: 'warning', file: 'a.md', line: 2, message: 'Task list', rule: 'kb-task-list'}
    ])
    expect(one).toEqual(['3 warnings in 1 file, by rule (--verbose lists each): kb-heading-depth ×2, kb-task-list ×1'])
  })

  it('prints warnings that fit one line each as they are', () => {
    const two = [deep('a.md', 4), deep('b.md', 8)]
    expect(diagnosticLines(two)).toEqual(two.map((d) => formatDiagnostic(d)))
  })

  it('says "e.g." when a rule\'s messages differ, and lists each warning with verbose', () => {
    const links = many((file, line) => ({...missing(file, line), severity: 'warning'}), 10, 3)
    expect(diagnosticLines(links)[1]).toBe(
      'warning [missing-link-target] ×30: e.g. Link target `x1.md` not found (fix the path)'
    )
    const verbose = diagnosticLines(many(deep, 30, 5), {verbose: true})
    expect(verbose).toHaveLength(150)
    expect(verbose[149]).toBe(
      'd29.md:5:1: warning: Heading level 4 is not supported by the platform; written as level 3. [kb-heading-depth]'
    )
  })

  it('sums infos up in one line per rule, never one each, and leaves them out when quiet', () => {
    const infos = many(comment, 12, 3).concat({
      severity: 'info',
      file: 'a.md',
      message: 'Something noted',
      rule: 'kb-note'
    })
    expect(diagnosticLines(infos)).toEqual([
      'info: 36 HTML comments left out of 12 documents (the platform shows none) [kb-html-comment]',
      'info: Something noted [kb-note]'
    ])
    expect(diagnosticLines(infos, {withoutInfos: true})).toEqual([])
  })
})

const severities = ['error', 'warning', 'info'] as const
const diagnostic: fc.Arbitrary<Diagnostic> = fc.record(
  {
    severity: fc.constantFrom(...severities),
    file: fc.constantFrom('a.md', 'b.md', 'c/d.md', 'e.md', 'f.md', 'g.md'),
    line: fc.integer({min: 1, max: 500}),
    message: fc.constantFrom('one thing', 'another thing', 'a third'),
    rule: fc.constantFrom('r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8', 'r9', 'r10', 'kb-html-comment')
  },
  {requiredKeys: ['severity', 'message']}
)

describe('diagnosticLines (property)', () => {
  it('never drops an error, bounds the warning section, and its counts add up', () => {
    fc.assert(
      fc.property(fc.array(diagnostic, {maxLength: 300}), fc.integer({min: 1, max: 30}), (list, maxWarningLines) => {
        const lines = diagnosticLines(list, {maxWarningLines})
        const errors = list.filter((d) => d.severity === 'error')
        const warnings = list.filter((d) => d.severity === 'warning')
        const infos = list.filter((d) => d.severity === 'info')
        // Every error, in full, first.
        expect(lines.slice(0, errors.length)).toEqual(errors.map((d) => formatDiagnostic(d)))
        const infoLines = lines.filter((l) => l.startsWith('info: '))
        const section = lines.slice(errors.length, lines.length - infoLines.length)
        const files = new Set(warnings.flatMap((d) => (d.file ? [d.file] : []))).size
        expect(section.length).toBeLessThanOrEqual(Math.max(1, Math.min(maxWarningLines, files)))
        if (warnings.length > 0 && warnings.length <= section.length)
          expect(section).toEqual(warnings.map((d) => formatDiagnostic(d)))
        else if (warnings.length > 0) {
          // A header with the total, unless the section is a line per rule (too little room for a header and places).
          const header = /^(\d+) warnings?/.exec(section[0]!)
          if (header) expect(Number(header[1])).toBe(warnings.length)
          if (section.length > 1 || !header) {
            // Grouped: the counts of the rules shown, single warnings in full and the rest line make the total.
            let sum = 0
            for (const line of header ? section.slice(1) : section) {
              const grouped = /^warning(?: \[[^\]]+\])? ×(\d+):/.exec(line)
              const rest = /^and \d+ more rules? \((\d+) warnings?\)/.exec(line)
              if (grouped) sum += Number(grouped[1])
              else if (rest) sum += Number(rest[1])
              else if (/(^|: )warning: /.test(line)) sum += 1
            }
            expect(sum).toBe(warnings.length)
          }
        } else expect(section).toEqual([])
        // One line per rule of infos, and their counts make the total.
        const infoRules = new Set(infos.map((d) => d.rule ?? ''))
        expect(infoLines).toHaveLength(infoRules.size)
        const infoSum = infoLines.reduce(
          (sum, l) => sum + Number(/^info: (\d+) HTML comments?/.exec(l)?.[1] ?? /×(\d+)/.exec(l)?.[1] ?? 1),
          0
        )
        expect(infoSum).toBe(infos.length)
      }),
      {numRuns: 300}
    )
  })
})

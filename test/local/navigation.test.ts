/**
 * The navigation parsers, as input/expected pairs: each folder of
 * `fixtures/navigation/` holds one navigation file (`SUMMARY.md`,
 * `mkdocs.yml`, `_category_.json` / `.yml`) and `expected.json`, what the
 * parser makes of it: the entries (or the category) and the problems, each
 * as `rule file:line` with the start of its message. Malformed files give
 * errors with their line and a hint. Regenerate a case with
 * `UPDATE_NAVIGATION=1` and review the diff.
 */
import {readdirSync, readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import type {Diagnostic} from '../../src/local/diagnostic.js'
import {isCategoryFile, parseCategory} from '../../src/local/navigation/docusaurus-category.js'
import {looksLikeSummary, parseSummary, summaryFileName} from '../../src/local/navigation/mdbook-summary.js'
import {mkdocsFileName, parseMkdocs} from '../../src/local/navigation/mkdocs.js'

const root = path.resolve('fixtures/navigation')

/** A problem as the fixtures write it: rule, place, message and whether it says how to fix it. */
function problemOf(d: Diagnostic): string {
  return `${d.severity} ${d.rule} ${d.file}:${d.line}: ${d.message}${d.hint ? ' [hint]' : ''}`
}

/** What the parser of the case's navigation file makes of it. */
function parseCase(dir: string): unknown {
  const [name] = readdirSync(dir).filter((file) => file !== 'expected.json')
  const text = readFileSync(path.join(dir, name!), 'utf8')
  if (name === summaryFileName) {
    const parsed = parseSummary(text, name)
    return {navigation: looksLikeSummary(text), entries: parsed.entries, problems: parsed.problems.map(problemOf)}
  }
  if (name === mkdocsFileName) {
    const {docsDir, hasNav, entries, problems} = parseMkdocs(text, name)
    return {docsDir, hasNav, entries, problems: problems.map(problemOf)}
  }
  if (isCategoryFile(name!)) {
    const {category, problems} = parseCategory(text, name!)
    return {category, problems: problems.map(problemOf)}
  }
  throw new Error(`no parser for ${name}`)
}

describe('navigation parsers', () => {
  for (const name of readdirSync(root).sort()) {
    it(name, () => {
      const dir = path.join(root, name)
      const expectedFile = path.join(dir, 'expected.json')
      const actual = parseCase(dir)
      if (process.env.UPDATE_NAVIGATION) writeFileSync(expectedFile, JSON.stringify(actual, null, 2) + '\n')
      expect(actual).toEqual(JSON.parse(readFileSync(expectedFile, 'utf8')))
    })
  }

  it('every malformed case has an error, and every problem names its line and says how to fix it', () => {
    for (const name of readdirSync(root).filter((n) => n.includes('malformed') || n.includes('invalid'))) {
      const {problems} = parseCase(path.join(root, name)) as {problems: string[]}
      expect(
        problems.some((problem) => problem.startsWith('error ')),
        name
      ).toBe(true)
      for (const problem of problems) expect(problem, name).toMatch(/^(?:error|warning) [\w-]+ \S+:\d+: .+ \[hint\]$/)
    }
  })

  it('a SUMMARY.md of prose is a document, not a navigation', () => {
    expect(looksLikeSummary('# Summary\n\nThis release brings [many fixes](fixes.md) and more.\n')).toBe(false)
    expect(looksLikeSummary('# Summary\n\n- [Intro](intro.md)\n')).toBe(true)
    expect(looksLikeSummary('[Intro](intro.md)\n')).toBe(true)
    // The Rust book's: a title, then a part title, then the chapters.
    expect(
      looksLikeSummary(
        '# The Rust Programming Language\n\n## Getting started\n\n- [Introduction](ch01-00-introduction.md)\n'
      )
    ).toBe(true)
  })
})

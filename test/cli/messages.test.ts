/**
 * The messages people read, through the real CLI against the embedded local
 * knowledge base: errors in full and first, warnings grouped by rule within
 * one screen (`--verbose` each, `--json` all with counts), infos in one line
 * per rule, at most 10 annotations per rule under GitHub Actions with the
 * rest counted in the step summary, and `--max-warnings`.
 */
import {mkdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {run, tempDir} from './helpers.js'

const documents = 30

/**
 * A tree of `documents` articles, each with three level-4 headings (90
 * warnings of one rule), every third with a task list (10 more of another),
 * each with an HTML comment (an info); with `broken`, one broken link (an error).
 */
async function noisyTree(broken = false): Promise<string> {
  const dir = path.join(await tempDir('kbsync-messages-'), 'docs')
  await mkdir(path.join(dir, 'guides'), {recursive: true})
  for (let i = 0; i < documents; i++) {
    const tasks = i % 3 === 0 ? '- [ ] to do\n' : ''
    const link = broken && i === 7 ? '[gone](missing.md)\n' : ''
    const body = `# Page ${i}\n\n<!-- note to self ${i} -->\n\n#### One\n\ntext\n\n#### Two\n\ntext\n\n#### Three\n\n${tasks}${link}`
    await writeFile(path.join(dir, i < 15 ? `page-${i}.md` : `guides/page-${i}.md`), body)
  }
  return dir
}

/** The lines of `text` that mention a warning (a grouped line, a header or one warning). */
function warningLines(text: string): string[] {
  return text.split('\n').filter((line) => /warning/.test(line))
}

describe('kbsync plan: the messages', () => {
  it('lists the error in full first and groups the warnings by rule within one line per document', async () => {
    const dir = await noisyTree(true)
    const plan = await run(['plan', dir], {cwd: dir})
    expect(plan.code).toBe(2)
    const lines = plan.err.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^page-7\.md:\d+:\d+: error: .*missing\.md.* \[missing-link-target\]$/)
    expect(plan.err).toContain('warning [kb-heading-depth] ×90: ')
    expect(plan.err).toMatch(/page-0\.md:5, page-0\.md:9, page-0\.md:13 and 87 more in 29 files/)
    expect(plan.err).toContain('warning [kb-task-list] ×10: ')
    expect(plan.err).not.toContain('page-29.md:13:1: warning')
    const shown = warningLines(plan.err)
    expect(shown.length).toBeGreaterThan(0)
    expect(shown.length).toBeLessThanOrEqual(Math.min(20, documents))
  })

  it('lists every warning with --verbose', async () => {
    const dir = await noisyTree()
    const verbose = await run(['plan', dir, '--verbose'], {cwd: dir})
    expect(verbose.code).toBe(0)
    expect(verbose.err.match(/: warning: Heading level 4/g)).toHaveLength(90)
    expect(verbose.err).toContain('guides/page-29.md:13:1: warning')
  })

  it('carries every diagnostic in --json, with their counts', async () => {
    const dir = await noisyTree(true)
    const json = await run(['plan', dir, '--json'], {cwd: dir})
    const plan = JSON.parse(json.out)
    expect(plan.schemaVersion).toBe(1)
    expect(plan.diagnostics.filter((d: {rule: string}) => d.rule === 'kb-heading-depth')).toHaveLength(90)
    expect(plan.diagnosticCounts).toMatchObject({errors: 1, warnings: 100})
    expect(plan.diagnosticCounts.rules).toEqual(
      expect.arrayContaining([
        {rule: 'kb-heading-depth', severity: 'warning', count: 90, files: 30},
        {rule: 'kb-task-list', severity: 'warning', count: 10, files: 10},
        {rule: 'missing-link-target', severity: 'error', count: 1, files: 1}
      ])
    )
  })

  it('says the HTML comments in one line, never one each', async () => {
    const dir = await noisyTree()
    const plan = await run(['plan', dir], {cwd: dir})
    expect(plan.err).toContain(
      `info: ${documents} HTML comments left out of ${documents} documents (the platform shows none) [kb-html-comment]`
    )
    expect(plan.err.match(/kb-html-comment/g)).toHaveLength(1)
  })

  it('under GitHub Actions annotates at most 10 per rule, errors first, and counts the rest in the step summary', async () => {
    const dir = await noisyTree(true)
    const summary = path.join(await tempDir(), 'summary.md')
    const plan = await run(['plan', dir], {
      cwd: dir,
      env: {GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: path.dirname(dir)}
    })
    const annotations = plan.out.split('\n').filter((line) => line.startsWith('::'))
    expect(annotations[0]).toMatch(/^::error file=docs\/page-7\.md,line=\d+,col=\d+,title=kbsync missing-link-target::/)
    expect(annotations.filter((line) => line.includes('title=kbsync kb-heading-depth'))).toHaveLength(10)
    expect(annotations.filter((line) => line.includes('title=kbsync kb-task-list'))).toHaveLength(10)
    expect(annotations.filter((line) => line.includes('kb-html-comment'))).toEqual([])
    const markdown = await readFile(summary, 'utf8')
    expect(markdown).toContain('| error | missing-link-target | 1 | 1 | 1 |')
    expect(markdown).toContain(
      '| warning | kb-heading-depth | 90 | 30 | 10 | page-0.md:5, page-0.md:9, page-0.md:13 and 87 more in 29 files |'
    )
    expect(markdown).toContain('80 not annotated')
  })
})

describe('kbsync convert: the messages', () => {
  it('sums the HTML comments up in one line and still lists each warning', async () => {
    const dir = await tempDir()
    await writeFile(path.join(dir, 'a.md'), '# A\n\n<!-- one -->\n\n<!-- two -->\n\n#### Deep\n\n<!-- three -->\n')
    const converted = await run(['convert', 'a.md'], {cwd: dir})
    expect(converted.code).toBe(0)
    expect(converted.err).toBe(
      'a.md:7:1: warning: Heading level 4 is not supported by the platform; written as level 3. [kb-heading-depth]\n' +
        'a.md: info: 3 HTML comments left out of 1 document (the platform shows none) [kb-html-comment]\n'
    )
  })
})

describe('--max-warnings', () => {
  it('fails plan above the limit with exit 2, saying how many and the limit', async () => {
    const dir = await noisyTree()
    const over = await run(['plan', dir, '--max-warnings', '99'], {cwd: dir})
    expect(over.code).toBe(2)
    expect(over.err).toContain('error: 100 warnings, more than the 99 allowed by --max-warnings (config "maxWarnings")')
    const within = await run(['plan', dir, '--max-warnings', '100'], {cwd: dir})
    expect(within.code).toBe(0)
  })

  it('fails push before any write, from the flag or the config file', async () => {
    const dir = await noisyTree()
    const flagged = await run(['push', dir, '--max-warnings', '5', '--json'], {cwd: dir})
    expect(flagged.code).toBe(2)
    expect(JSON.parse(flagged.out)).toMatchObject({
      status: 'invalid',
      writes: 0,
      error: expect.stringContaining('100 warnings, more than the 5 allowed')
    })
    expect(flagged.err).toContain('Nothing was written.')
    await writeFile(path.join(dir, 'kbsync.config.json'), JSON.stringify({maxWarnings: 10}))
    const configured = await run(['push'], {cwd: dir})
    expect(configured.code).toBe(2)
    expect(configured.err).toContain('100 warnings, more than the 10 allowed')
    // Nothing reached the knowledge base: every page is still to be created.
    const plan = JSON.parse((await run(['plan', dir, '--json'], {cwd: dir})).out)
    expect(plan.summary.create).toBe(documents + 1)
    const pushed = await run(['push', dir, '--max-warnings', '100'], {cwd: dir})
    expect(pushed.code).toBe(0)
  })

  it('is listed with a number check', async () => {
    const dir = await noisyTree()
    const bad = await run(['plan', dir, '--max-warnings', 'many'], {cwd: dir})
    expect(bad.code).toBe(2)
    expect(bad.err).toContain('option --max-warnings must be an integer from 0')
  })
})

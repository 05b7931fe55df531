/**
 * Reporter: colour only on a terminal and never with NO_COLOR, annotations
 * and their escaping under GITHUB_ACTIONS=true, step summaries, JSON mode,
 * progress only on a terminal, secrets masked.
 */
import {mkdtemp, readFile, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {
  annotation,
  createReporter,
  escapeData,
  escapeProperty,
  planSummaryMarkdown,
  type OutputStream
} from '../../src/cli/output/index.js'
import type {PushPlan} from '../../src/sync/index.js'

interface Captured extends OutputStream {
  text: string
}

function stream(isTTY: boolean): Captured {
  const s: Captured = {
    text: '',
    isTTY,
    columns: 80,
    write(chunk: string) {
      s.text += chunk
      return true
    }
  }
  return s
}

const esc = '\x1b['
const diag = {
  severity: 'error' as const,
  file: 'guides/install.md',
  line: 3,
  column: 5,
  message: 'Heading too deep',
  hint: 'use ##',
  rule: 'kb-heading-depth'
}

let tmp: string
beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'kbsync-reporter-'))
})
afterAll(async () => {
  await rm(tmp, {recursive: true, force: true})
})

describe('colour', () => {
  it('is off when the stream is not a terminal', () => {
    const stdout = stream(false)
    const stderr = stream(false)
    const r = createReporter({stdout, stderr, env: {}})
    r.success('done')
    r.diagnostic(diag)
    expect(stdout.text).toBe('done\n')
    expect(stderr.text).not.toContain(esc)
    expect(stderr.text).toBe('guides/install.md:3:5: error: Heading too deep (use ##) [kb-heading-depth]\n')
  })

  it('is on for a terminal, off with NO_COLOR, forced with FORCE_COLOR', () => {
    const tty = stream(true)
    createReporter({stdout: tty, stderr: stream(true), env: {}}).success('done')
    expect(tty.text).toContain(esc)
    const noColour = stream(true)
    createReporter({stdout: noColour, stderr: stream(true), env: {NO_COLOR: '1', FORCE_COLOR: '1'}}).success('done')
    expect(noColour.text).toBe('done\n')
    const forced = stream(false)
    createReporter({stdout: forced, stderr: stream(false), env: {FORCE_COLOR: '1'}}).success('done')
    expect(forced.text).toContain(esc)
  })
})

describe('GitHub annotations', () => {
  it('are printed only under GITHUB_ACTIONS=true', () => {
    const plain = stream(false)
    createReporter({stdout: plain, stderr: stream(false), env: {}}).diagnostic(diag)
    expect(plain.text).not.toContain('::error')
    const ci = stream(false)
    createReporter({stdout: ci, stderr: stream(false), env: {GITHUB_ACTIONS: 'true'}}).diagnostic(diag)
    expect(ci.text).toBe(
      '::error file=guides/install.md,line=3,col=5,title=kbsync kb-heading-depth::Heading too deep (use ##)\n'
    )
  })

  it('accompany an error that names no file (a conflict, refused deletions), only under GITHUB_ACTIONS=true', () => {
    const ci = stream(false)
    createReporter({stdout: ci, stderr: stream(false), env: {GITHUB_ACTIONS: 'true'}}).error(
      'conflict: a.md was edited\non both sides, 100%'
    )
    expect(ci.text).toBe('::error::conflict: a.md was edited%0Aon both sides, 100%25\n')
    const plain = stream(false)
    createReporter({stdout: plain, stderr: stream(false), env: {}}).error('conflict: a.md')
    expect(plain.text).toBe('')
  })

  it('escape %, CR, LF in messages and also : and , in properties', () => {
    expect(escapeData('100% done\r\nnext')).toBe('100%25 done%0D%0Anext')
    expect(escapeProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A')
    const line = annotation({severity: 'warning', file: 'odd,name:1.md', line: 2, message: 'bad\nthing 50%'})
    expect(line).toBe('::warning file=odd%2Cname%3A1.md,line=2,title=kbsync::bad%0Athing 50%25')
    expect(line.split('\n')).toHaveLength(1)
  })

  it('make paths relative to GITHUB_WORKSPACE and go to stderr in --json mode', () => {
    const stdout = stream(false)
    const stderr = stream(false)
    const r = createReporter({
      stdout,
      stderr,
      env: {GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: '/repo'},
      json: true,
      dir: '/repo/docs'
    })
    r.diagnostic({severity: 'warning', file: 'a.md', message: 'm'})
    r.json({ok: true})
    expect(JSON.parse(stdout.text)).toEqual({ok: true})
    expect(stderr.text).toContain('::warning file=docs/a.md,title=kbsync::m')
  })
})

describe('modes', () => {
  it('--json: only JSON on stdout', () => {
    const stdout = stream(true)
    const r = createReporter({stdout, stderr: stream(false), env: {}, json: true})
    r.info('hello')
    r.action('created article a.md')
    r.progress(1, 2, 'x')
    r.json({a: 1})
    expect(JSON.parse(stdout.text)).toEqual({a: 1})
  })

  it('--quiet keeps warnings and errors only', () => {
    const stdout = stream(false)
    const stderr = stream(false)
    const r = createReporter({stdout, stderr, env: {}, quiet: true})
    r.info('hello')
    r.action('created a')
    r.warn('careful')
    expect(stdout.text).toBe('')
    expect(stderr.text).toBe('warning: careful\n')
  })

  it('progress bars only on a terminal; one line per action otherwise', () => {
    const log = stream(false)
    const r = createReporter({stdout: log, stderr: stream(false), env: {}})
    r.progress(1, 3, 'a')
    r.action('created article a.md')
    r.action('updated article b.md')
    expect(log.text).toBe('created article a.md\nupdated article b.md\n')
    const tty = stream(true)
    const t = createReporter({stdout: tty, stderr: stream(true), env: {NO_COLOR: '1'}})
    t.progress(1, 4, 'a.md')
    expect(tty.text).toContain('[#####...............] 1/4 a.md')
    t.info('between')
    expect(tty.text).toContain('\r\x1b[Kbetween\n')
  })

  it('masks secrets in every line', () => {
    const stdout = stream(false)
    const stderr = stream(false)
    const r = createReporter({stdout, stderr, env: {}, secrets: ['tok-very-secret']})
    r.info('token tok-very-secret')
    r.error('failed with tok-very-secret')
    expect(stdout.text + stderr.text).not.toContain('tok-very-secret')
  })
})

describe('step summary', () => {
  it('is appended to $GITHUB_STEP_SUMMARY when set, and skipped otherwise', async () => {
    const file = path.join(tmp, 'summary.md')
    const plan: PushPlan = {
      schemaVersion: 1,
      dir: '/d',
      rootTopicId: null,
      orphans: [],
      diagnostics: [],
      blocked: false,
      needsConfirmation: false,
      ops: [{op: 'create', type: 'article', path: 'a|b.md', title: 'A | B', reason: 'new'}],
      summary: {
        create: 1,
        update: 0,
        move: 0,
        rename: 0,
        delete: 0,
        archive: 0,
        permissions: 0,
        upload: 0,
        conflict: 0,
        drift: 0
      }
    }
    const r = createReporter({stdout: stream(false), stderr: stream(false), env: {GITHUB_STEP_SUMMARY: file}})
    await r.stepSummary('# first')
    await r.stepSummary(planSummaryMarkdown(plan))
    const text = await readFile(file, 'utf8')
    expect(text.startsWith('# first\n### kbsync plan')).toBe(true)
    expect(text).toContain('**1 create**')
    expect(text).toContain('| create | article | a\\|b.md | A \\| B |')
    await createReporter({stdout: stream(false), stderr: stream(false), env: {}}).stepSummary('nothing')
  })
})

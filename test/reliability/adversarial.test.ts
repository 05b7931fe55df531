/**
 * Adversarial bodies through the built CLI against the local server (issue
 * 22, finding 6): a local body nested past the dialect's limit fails the
 * plan with file and line (exit 2, nothing written), whether the scan
 * parses it or reads it as plain; a remote one is skipped by name while
 * every other item pulls; a remote body of ~450 KB of unclosed tags pulls;
 * nothing ever ends in a stack overflow.
 */
import {mkdir, mkdtemp, readdir, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'
import {pullBody} from '../../src/sync/pull/index.js'
import {runCli} from './helpers.js'

type Server = Awaited<ReturnType<typeof startServer>>
let server: Server
let env: NodeJS.ProcessEnv
let client: KbClient
let base = ''

beforeAll(async () => {
  server = await startServer({port: 0})
  env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: server.token}
  client = KbClient.fromEnv(env)
  base = await mkdtemp(path.join(tmpdir(), 'kbsync-adversarial-'))
})

afterAll(async () => {
  await client?.close()
  await server?.close()
  if (base) await rm(base, {recursive: true, force: true})
})

/** A stack trace line of V8. */
const stackLine = /^\s+at .+\(?.*:\d+:\d+\)?$/m
/** What a crash on depth looks like. */
const crash = /Maximum call stack|RangeError|TypeError/

/** Bodies nested past the limit: `>` per level; list markers in a row (a body the scan reads as plain); quotes deepening line by line. */
const deepBodies = {
  quotes: '>'.repeat(5002) + '\n',
  list: 'Intro\n\n' + '- '.repeat(700) + 'x\n',
  lines: Array.from({length: 300}, (_, index) => '> '.repeat(index + 1) + 'line').join('\n') + '\n'
}

async function folder(name: string): Promise<string> {
  const dir = path.join(base, name)
  await mkdir(dir, {recursive: true})
  return dir
}

describe('a local body nested past the limit', () => {
  it('fails plan and push with file and line (exit 2, nothing written), never a stack overflow', async () => {
    const dir = await folder('local')
    await writeFile(path.join(dir, 'fine.md'), 'A fine page.\n')
    for (const [name, body] of Object.entries(deepBodies)) await writeFile(path.join(dir, `${name}.md`), body)

    server.resetLog()
    const plan = await runCli(['plan', dir], env)
    expect(plan.code, plan.err).toBe(2)
    expect(plan.err).toMatch(/quotes\.md:1:\d+: error: Nesting deeper than 100 levels at line 1/)
    expect(plan.err).toMatch(/list\.md:3:\d+: error: Nesting deeper than 100 levels at line 3/)
    expect(plan.err).toMatch(/lines\.md:\d+:\d+: error: Nesting deeper than 100 levels/)
    expect(plan.err).toContain('[kb-nesting-too-deep]')

    const push = await runCli(['push', dir], env)
    expect(push.code, push.err).toBe(2)
    expect(push.err).toMatch(/list\.md:3:\d+: error: Nesting deeper/)
    expect(server.counts().writes, 'nothing is written').toBe(0)
    for (const run of [plan, push]) {
      expect(run.out + run.err).not.toMatch(stackLine)
      expect(run.out + run.err).not.toMatch(crash)
    }
  }, 60_000)
})

describe('a remote body kbsync cannot convert', () => {
  it('is skipped by name while every other item pulls; ~450 KB of unclosed tags pulls; plan and status read them without crashing', async () => {
    const root = (await client.createItem({type: 'topic', title: 'Adversarial', parent_topic_id: null})).id
    const article = async (title: string, body: string) =>
      (await client.createItem({type: 'article', title, parent_topic_id: root, body})).id
    await article('Before', 'Text before.')
    // ~450 KB of hint blocks that never close.
    await article('Unclosed', '<div data-node="hintBlock" data-color="blue">\n\n'.repeat(9600))
    const deepId = await article('Deep quotes', deepBodies.quotes)
    await article('Deep list', deepBodies.list)
    await article('After', 'Text after.')

    const dir = await folder('pulled')
    // --verbose: each warning on its own line (the 450 KB body is also lossy, so the warnings would be grouped).
    const pull = await runCli(['pull', dir, '--root-topic', root, '--verbose'], env)
    const output = pull.out + pull.err
    expect(pull.code, output).toBe(0)
    expect(output).not.toMatch(stackLine)
    expect(output).not.toMatch(crash)
    expect(pull.err).toMatch(
      /Deep quotes\.md: warning: "Deep quotes" \(article \w+\) is not pulled: .*Nesting deeper than 100 levels at line 1/
    )
    expect(pull.err).toMatch(
      /Deep list\.md: warning: "Deep list" \(article \w+\) is not pulled: .*Nesting deeper than 100 levels at line 3/
    )
    expect((await readdir(dir)).filter((name) => name.endsWith('.md')).sort()).toEqual([
      'After.md',
      'Before.md',
      'Unclosed.md'
    ])

    // The skipped items are remote items without a file: nothing to push, nothing to crash on.
    for (const command of ['plan', 'status']) {
      const run = await runCli([command, dir, '--root-topic', root], env)
      expect(run.code, run.out + run.err).not.toBe(1)
      expect(run.out + run.err).not.toMatch(stackLine)
      expect(run.out + run.err).not.toMatch(crash)
    }

    // A file pinned to the deep article makes the plan read and compare its body.
    await writeFile(path.join(dir, 'Pinned.md'), `---\nkb_id: ${deepId}\n---\nMy own text.\n`)
    server.resetLog()
    const plan = await runCli(['plan', dir, '--root-topic', root], env)
    expect(plan.code, plan.out + plan.err).toBe(0)
    expect(plan.out + plan.err).not.toMatch(crash)
    expect(server.counts().writes).toBe(0)
  }, 120_000)

  it('a conflict copy of it is the body as the platform stores it (pullBody never throws)', () => {
    const context = {file: 'a.md', documentOf: () => undefined, assetOf: () => undefined}
    for (const body of Object.values(deepBodies)) {
      expect(pullBody(body, 'Title', context)).toEqual({text: body, form: 'lossy', canonical: body})
    }
  })
})

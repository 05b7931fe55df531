/**
 * The bad-input corpus through the built CLI against the local server: every
 * case names its file (and line where a line exists), errors exit 2 before
 * any write, warnings let the push go on, `plan` never writes, nothing
 * crashes and no stack trace shows without `--verbose`.
 */
import {rm} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startServer} from '../../src/server/index.js'
import {caseFolder, corpus, outsideSecret, writeBigArticle} from './corpus.js'
import {cli} from '../e2e/push-helpers.js'
import {runCli} from './helpers.js'

type Server = Awaited<ReturnType<typeof startServer>>
let server: Server
let env: NodeJS.ProcessEnv
const bases: string[] = []

beforeAll(async () => {
  server = await startServer({port: 0})
  env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: server.token}
})

afterAll(async () => {
  await server?.close()
  for (const base of bases) await rm(base, {recursive: true, force: true})
})

/** A stack trace line of V8. */
const stackLine = /^\s+at .+\(?.*:\d+:\d+\)?$/m

describe('bad input corpus', () => {
  for (const bad of corpus) {
    it(`${bad.name}: names file and line, exit ${bad.code}, no crash`, async () => {
      const {dir, outside} = await caseFolder(bad.name)
      bases.push(path.dirname(dir))
      await bad.build(dir, outside)

      server.resetLog()
      const plan = await cli(['plan', dir], env)
      expect(server.counts().writes, 'plan writes nothing').toBe(0)
      expect(plan.code).toBe(bad.code)

      const root = (await (
        await fetch(`${server.apiUrl}/knowledgebase`, {
          method: 'POST',
          headers: {authorization: `Bearer ${server.token}`, 'content-type': 'application/json'},
          body: JSON.stringify({type: 'topic', title: `Case ${bad.name}`})
        })
      ).json()) as {id: string}
      server.resetLog()
      const push = await runCli(['push', dir, '--root-topic', root.id], env)
      const output = push.out + push.err
      expect(push.code, output).toBe(bad.code)
      if (bad.code === 2) expect(server.counts().writes, 'an error stops the run before any write').toBe(0)
      for (const mention of bad.mentions) expect(push.err, output).toContain(mention)
      expect(push.err).toContain(`[${bad.rule}]`)
      expect(output).not.toMatch(stackLine)
      expect(output).not.toMatch(/TypeError|ReferenceError|Unhandled|ENOENT|ELOOP/)
      // Nothing outside the folder reached the server.
      expect(JSON.stringify(server.items())).not.toContain(outsideSecret)
    })
  }

  it('a 20 MB article is refused at once (exit 2, file and line, zero writes), not converted for minutes', async () => {
    const {dir} = await caseFolder('big')
    bases.push(path.dirname(dir))
    await writeBigArticle(path.join(dir, 'big.md'), 20)
    await writeBigArticle(path.join(dir, 'fine.md'), 0.01)
    server.resetLog()
    const started = Date.now()
    const push = await runCli(['push', dir], env)
    expect(push.code, push.err).toBe(2)
    // Over 8 MB, only the head is read: the error names the file's size (`local/text.ts`).
    expect(push.err).toMatch(/big\.md:1: error: The file is 20\.\d MB/)
    expect(push.out + push.err).not.toMatch(stackLine)
    expect(server.counts().writes).toBe(0)
    expect(Date.now() - started).toBeLessThan(20_000)
  }, 30_000)

  it('--verbose is the only way to a stack trace (a failing server is reported in one line)', async () => {
    const {dir} = await caseFolder('verbose')
    bases.push(path.dirname(dir))
    await writeBigArticle(path.join(dir, 'page.md'), 0.001)
    const dead = {...env, KBSYNC_API_URL: 'http://127.0.0.1:9/v4', KBSYNC_FILES_URL: 'http://127.0.0.1:9/files'}
    const quiet = await runCli(['plan', dir], dead)
    expect(quiet.code).not.toBe(0)
    expect(quiet.err.trim().length).toBeGreaterThan(0)
    expect(quiet.out + quiet.err).not.toMatch(stackLine)
  })
})

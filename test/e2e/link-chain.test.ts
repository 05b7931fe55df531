/**
 * A chain of articles each linking to the next, the last to the first (a
 * "next page" footer, a generated changelog), through the CLI against the
 * real local server: it pushes (ordering walks once recursed per link and
 * overflowed the stack at 6,000), in parallel stretches rather than one
 * article at a time, every body whole at the end; a second push writes
 * nothing; it pulls into an empty folder with every link back as a file link.
 * KBSYNC_CHAIN sets the length (12,000 for the benchmark).
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startServer} from '../../src/server/index.js'
import {generateLinkChain} from '../../bench/scale-tree.js'
import {temporaryFolders} from '../temp-folders.js'
import {cli} from './push-helpers.js'

const length = Number(process.env.KBSYNC_CHAIN ?? 6000)
const folders = temporaryFolders('chain')
let server: Awaited<ReturnType<typeof startServer>>
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  server = await startServer({port: 0, rateLimit: {limit: 10_000_000, windowSeconds: 600}})
  env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: server.token}
})
afterAll(async () => {
  await server?.close()
  await folders.removeAll()
})

/** The step number of each article's title, and the id its body links to. */
function links(): Map<number, {id: string; target: string | undefined}> {
  const byStep = new Map<number, {id: string; target: string | undefined}>()
  for (const item of server.items()) {
    const step = /^Step (\d+)$/.exec(item.title)?.[1]
    if (step === undefined) continue
    byStep.set(Number(step), {id: item.id, target: /\]\(([^)]*)\)/.exec(item.body ?? '')?.[1]})
  }
  return byStep
}

describe(`a chain of ${length} linked articles`, () => {
  it('pushes in parallel stretches with every link whole, pushes again with no write, and pulls back', async () => {
    const source = await folders.make()
    await generateLinkChain(source, length)
    const first = await cli(['push', source], env)
    expect(first.code, first.err).toBe(0)
    const byStep = links()
    expect(byStep.size).toBe(length)
    for (let step = 0; step < length; step++) {
      const next = byStep.get((step + 1) % length)!
      expect(byStep.get(step)!.target, `step ${step}`).toContain(next.id)
    }
    // Creates, the listings around them (`converge.ts`), and one update per stretch: about 3 requests per article.
    const counts = server.counts()
    expect(counts.writes).toBeLessThan(length + length / 100)

    server.resetLog()
    const again = await cli(['push', source], env)
    expect(again.code, again.err).toBe(0)
    expect(server.counts().writes).toBe(0)

    const pulled = await folders.make()
    const pull = await cli(['pull', pulled], env)
    expect(pull.code, pull.err + pull.out).toBe(0)
    for (const step of [0, 1, Math.floor(length / 2), length - 1]) {
      const part = `part-${Math.floor(step / 500)}`
      const text = await readFile(path.join(pulled, part, `step-${step}.md`), 'utf8')
      expect(text).toMatch(new RegExp(`\\]\\([^)]*step-${(step + 1) % length}\\.md\\)`))
    }
  }, 1_800_000)
})

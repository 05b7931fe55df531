/**
 * A chain of articles each linking to the next, the last to the first (a
 * "next page" footer, a generated changelog), through the CLI against the
 * real local server: it pushes (ordering walks once recursed per link and
 * overflowed the stack at 6,000), in parallel stretches rather than one
 * article at a time, every body whole at the end; a second push writes
 * nothing; it pulls into an empty folder with every link back as a file link.
 * 1,500 articles by default (about 1.5 minutes of CPU at 6,000, too long
 * for every CI run): the stack depth is guarded by the 12,000- and
 * 100,000-article walks of creation-order.test.ts and break-waits.test.ts,
 * and `npm run bench -- --only=scale` pushes and pulls 12,000.
 * KBSYNC_CHAIN sets the length.
 */
import {readdir, readFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startServer} from '../../src/server/index.js'
import {generateLinkChain} from '../../bench/scale-tree.js'
import {temporaryFolders} from '../temp-folders.js'
import {cli} from './push-helpers.js'

const length = Number(process.env.KBSYNC_CHAIN ?? 1500)
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

/** The id and the body of each article, by the step number of its title. */
function links(): Map<number, {id: string; body: string}> {
  const byStep = new Map<number, {id: string; body: string}>()
  for (const item of server.items()) {
    const step = /^Step (\d+)$/.exec(item.title)?.[1]
    if (step === undefined) continue
    byStep.set(Number(step), {id: item.id, body: item.body ?? ''})
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
      expect(byStep.get(step)!.body, `step ${step}`).toContain(next.id)
    }
    // One create per article and topic, and one update per stretch (about 2 x 8 stretches, and the cycle's).
    expect(server.counts().writes).toBeLessThanOrEqual(length + Math.ceil(length / 500) + 20)

    server.resetLog()
    const again = await cli(['push', source], env)
    expect(again.code, again.err).toBe(0)
    expect(server.counts().writes).toBe(0)

    const pulled = await folders.make()
    const pull = await cli(['pull', pulled], env)
    expect(pull.code, pull.err + pull.out).toBe(0)
    const files = (await readdir(pulled, {recursive: true})).filter((name) => name.endsWith('.md'))
    // Every article, and a page for each folder.
    expect(files.length).toBeGreaterThanOrEqual(length)
    const texts = new Map(
      await Promise.all(files.map(async (name) => [name, await readFile(path.join(pulled, name), 'utf8')] as const))
    )
    const fileOf = (step: number) => [...texts].find(([, text]) => text.includes(`Step ${step} of the chain.`))![0]
    for (const step of [0, 1, Math.floor(length / 2), length - 1]) {
      const file = fileOf(step)
      const target = /\]\(<?([^)#>]+\.md)>?\)/.exec(texts.get(file)!)?.[1]
      expect(target, file).toBeDefined()
      expect(path.join(path.dirname(file), decodeURIComponent(target!))).toBe(fileOf((step + 1) % length))
    }
  }, 1_800_000)
})

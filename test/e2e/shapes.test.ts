/**
 * Trees of other shapes through the CLI against the real local server
 * (issue 32). One flat folder of many articles: a create's looks for a
 * concurrent run's twin listed the folder twice per create (2 x 300
 * listings of up to 300 children here; 1.8 billion nodes at 30,000), now
 * the creates share listings. A deep folder chain pushes and pulls back
 * whole. KBSYNC_FLAT and KBSYNC_DEEP set the sizes.
 */
import {mkdir, readdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startServer} from '../../src/server/index.js'
import {temporaryFolders} from '../temp-folders.js'
import {cli} from './push-helpers.js'

const flat = Number(process.env.KBSYNC_FLAT ?? 300)
const deep = Number(process.env.KBSYNC_DEEP ?? 150)
const folders = temporaryFolders('shapes')
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

describe('trees of other shapes', () => {
  it(`pushes one flat folder of ${flat} articles listing it per batch of creates, not twice per create`, async () => {
    const source = await folders.make()
    const folder = path.join(source, 'flat')
    await mkdir(folder)
    for (let i = 0; i < flat; i++)
      await writeFile(path.join(folder, `page-${i}.md`), `# Page ${i}\n\nText of page ${i}.\n`)
    server.resetLog()
    const push = await cli(['push', source], env)
    expect(push.code, push.err).toBe(0)
    expect(server.counts().create).toBe(flat + 1)
    // Two listings per create before; now the creates that answer during a listing share the next one.
    expect(server.counts().structure).toBeLessThan(flat / 2)
    const titles = server.items().map((item) => item.title)
    expect(new Set(titles).size).toBe(titles.length)
  }, 600_000)

  it(`pushes and pulls a folder chain ${deep} deep`, async () => {
    const source = await folders.make()
    let at = source
    for (let level = 0; level < deep; level++) {
      at = path.join(at, 'a')
      await mkdir(at)
      await writeFile(path.join(at, 'p.md'), `# Page ${level}\n\nLevel ${level}.\n`)
    }
    const before = server.items().length
    const push = await cli(['push', source], env)
    expect(push.code, push.err).toBe(0)
    expect(server.items().length - before).toBe(2 * deep)
    const again = await cli(['push', source], env)
    expect(again.code, again.err).toBe(0)
    expect(again.out).toContain('0 write requests')

    const pulled = await folders.make()
    const pull = await cli(['pull', pulled], env)
    expect(pull.code, pull.err).toBe(0)
    const files = (await readdir(pulled, {recursive: true})).filter((name) => name.endsWith('.md'))
    // Every level's page, at its level.
    for (let level = 0; level < deep; level++)
      expect(files).toContain(path.join(...Array<string>(level + 1).fill('a'), `Page ${level}.md`))
  }, 600_000)
})

/**
 * What a push keeps per document: the plan lets go of every tree and render
 * it does not write (a CI checkout without the body cache parses every body
 * in its scan; none of those trees outlives the plan), and the apply lets go
 * of each body once written; a body its file gives again is read back for
 * its write.
 */
import {appendFile, cp, mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {bodyCachePath} from '../../src/local/index.js'
import {contextOf, planPush, push} from '../../src/sync/index.js'
import {FakeClient} from './fake-client.js'

const temporary: string[] = []
afterAll(async () => {
  for (const dir of temporary) await rm(dir, {recursive: true, force: true})
})

async function copyTree(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-push-memory-'))
  temporary.push(dir)
  await cp(path.resolve('fixtures/trees', name), dir, {recursive: true})
  return dir
}

describe('the memory of a push', () => {
  it('keeps no parsed tree past the plan for a document it does not write (a checkout without the body cache)', async () => {
    const dir = await copyTree('basic')
    const client = new FakeClient()
    const first = await push({dir, client})
    expect(first.failed).toEqual([])
    // Written: each body was let go of once sent.
    for (const node of Object.values(contextOf(first.plan).scan.byPath)) expect(node.tree).toBeUndefined()

    await rm(bodyCachePath(dir))
    const plan = await planPush({dir, client})
    expect(plan.ops).toEqual([])
    const nodes = Object.values(contextOf(plan).scan.byPath).filter((node) => node.bodyKey !== undefined)
    expect(nodes.length).toBeGreaterThan(2)
    for (const node of nodes) expect(node.tree, node.path).toBeUndefined()
  })

  it('holds no text of any document past the plan, only its hashes; the written one reads its body again and lets go once sent', async () => {
    const dir = await copyTree('basic')
    const client = new FakeClient()
    expect((await push({dir, client})).failed).toEqual([])
    const before = await planPush({dir, client})
    const articles = Object.values(contextOf(before).scan.byPath).filter((node) => node.kind === 'article')
    expect(articles.length).toBeGreaterThan(2)
    const edited = articles[0]!
    await appendFile(path.join(dir, edited.file!), '\nOne more line.\n')

    const plan = await planPush({dir, client})
    expect(plan.ops.map((op) => op.path)).toEqual([edited.path])
    for (const node of Object.values(contextOf(plan).scan.byPath)) {
      // No raw file text past the plan for any document, and no body: the one being written reads its file again.
      expect('source' in node && node.source !== undefined, node.path).toBe(false)
      expect(node.body, node.path).toBeUndefined()
      if (node.kind === 'article') expect(node.sourceHash, node.path).toMatch(/^[0-9a-f]{64}$/)
    }
    const written = await push({dir, client})
    expect(written.failed).toEqual([])
    // Sent: its text is let go of too.
    for (const node of Object.values(contextOf(written.plan).scan.byPath)) expect(node.body, node.path).toBeUndefined()
  })
})

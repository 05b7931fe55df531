/**
 * The early conversions of a pull are bounded by a window (issue 32): at
 * most `window` are held (made, not yet taken); the records read past it
 * are only parsed for their facts, and a slot taken frees one for the next.
 * What is taken is the conversion the documents step would have made.
 */
import {describe, expect, it} from 'vitest'
import {createTaskRunner} from '../../src/workers/index.js'
import {createSpeculation} from '../../src/sync/pull/speculation.js'
import {pullBody} from '../../src/sync/pull/index.js'
import type {RemoteSnapshot} from '../../src/sync/shared/remote.js'
import {bodyHash} from '../../src/sync/shared/remote.js'

/** A knowledge base of `count` articles at the root, each record read, and where each goes. */
function knowledgeBase(count: number) {
  const remote: RemoteSnapshot = {rootTopicId: null, items: {}, top: [], details: {}, permissions: {}}
  const layout = {
    paths: new Map<string, string>(),
    current: new Map<string, string>(),
    files: new Map<string, string>()
  }
  for (let n = 0; n < count; n++) {
    const id = String(100 + n)
    const body = `Article ${n} says *this*.\n\n- one\n- two\n`
    remote.items[id] = {id, type: 'article', title: `Article ${n}`, parentId: null, children: []}
    remote.top.push(id)
    remote.details[id] = {
      version: 1,
      updatedAt: '',
      title: `Article ${n}`,
      body,
      bodyHash: bodyHash(body),
      attachments: {},
      files: []
    }
    layout.paths.set(id, `article-${n}.md`)
    layout.files.set(id, `article-${n}.md`)
  }
  return {remote, layout, ids: Object.keys(remote.items)}
}

const answers = {documentOf: () => undefined, assetOf: () => undefined, diagramOf: () => undefined}

describe("a pull's early conversions", () => {
  it('holds at most its window, and takes what the documents step would convert', async () => {
    const {remote, layout, ids} = knowledgeBase(10)
    const pool = createTaskRunner({size: 0})
    const setting = {remote, layout, urls: {}, diagrams: new Map(), pool, early: true, window: 3}
    const speculation = createSpeculation(setting)
    const facts = await Promise.all(ids.map((id) => speculation.convert(id)))
    // Every record's facts, whether converted early or not.
    expect(facts).toHaveLength(10)
    expect(speculation.held).toMatchObject({now: 3, most: 3})
    const taken = ids.map((id) => speculation.take(id, layout.files.get(id)!, answers))
    expect(taken.filter((pulled) => pulled !== undefined)).toHaveLength(3)
    expect(speculation.held).toMatchObject({now: 0, bytes: 0})
    for (const [index, pulled] of taken.entries()) {
      if (!pulled) continue
      const id = ids[index]!
      const file = layout.files.get(id)!
      expect(pulled).toEqual(pullBody(remote.details[id]!.body, remote.items[id]!.title, {file, ...answers}))
    }
    // Taken, the slots are free again: the next records are converted early.
    await speculation.convert(ids[9]!)
    expect(speculation.held).toMatchObject({now: 1, most: 3})
    expect(speculation.take(ids[9]!, layout.files.get(ids[9]!)!, answers)).toBeDefined()
    speculation.release()
  })

  it('holds no more than its budget of bytes, and frees what is taken', async () => {
    const {remote, layout, ids} = knowledgeBase(10)
    const pool = createTaskRunner({size: 0})
    const speculation = createSpeculation({
      remote,
      layout,
      urls: {},
      diagrams: new Map(),
      pool,
      early: true,
      budget: 5000
    })
    for (const id of ids) await speculation.convert(id)
    // Each weighs at least 2 KB: the third starts below the budget, the fourth finds it spent.
    expect(speculation.held.most).toBe(3)
    expect(speculation.held.bytes).toBeGreaterThanOrEqual(3 * 2048)
    const taken = ids.filter((id) => speculation.take(id, layout.files.get(id)!, answers))
    expect(taken).toEqual(ids.slice(0, 3))
    expect(speculation.held).toMatchObject({now: 0, bytes: 0})
    // Given back, the budget makes room for the next.
    await speculation.convert(ids[9]!)
    expect(speculation.held.now).toBe(1)
    speculation.release()
  })

  it('by default converts the records of a pull of 4,200 articles early (past the 4,096 of a count alone): none is parsed twice', async () => {
    const {remote, layout, ids} = knowledgeBase(4200)
    const speculation = createSpeculation({
      remote,
      layout,
      urls: {},
      diagrams: new Map(),
      pool: createTaskRunner({size: 0}),
      early: true
    })
    for (const id of ids) await speculation.convert(id)
    expect(speculation.held.most).toBe(4200)
    const id = ids[4199]!
    const pulled = speculation.take(id, layout.files.get(id)!, answers)
    expect(pulled?.canonical).toBe(remote.details[id]!.body)
    speculation.release()
  })
})

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
    expect(speculation.held).toEqual({now: 3, most: 3})
    const taken = ids.map((id) => speculation.take(id, layout.files.get(id)!, answers))
    expect(taken.filter((pulled) => pulled !== undefined)).toHaveLength(3)
    expect(speculation.held.now).toBe(0)
    for (const [index, pulled] of taken.entries()) {
      if (!pulled) continue
      const id = ids[index]!
      const file = layout.files.get(id)!
      expect(pulled).toEqual(pullBody(remote.details[id]!.body, remote.items[id]!.title, {file, ...answers}))
    }
    // Taken, the slots are free again: the next records are converted early.
    await speculation.convert(ids[9]!)
    expect(speculation.held).toEqual({now: 1, most: 3})
    expect(speculation.take(ids[9]!, layout.files.get(ids[9]!)!, answers)).toBeDefined()
    speculation.release()
  })

  it('by default converts the records of a pull of 1,500 articles early: none is parsed twice', async () => {
    const {remote, layout, ids} = knowledgeBase(1500)
    const speculation = createSpeculation({
      remote,
      layout,
      urls: {},
      diagrams: new Map(),
      pool: createTaskRunner({size: 0}),
      early: true
    })
    for (const id of ids) await speculation.convert(id)
    // The window was 1,024: the other 476 records were parsed for their facts, then again to be converted.
    expect(speculation.held.most).toBe(1500)
    const id = ids[1499]!
    const pulled = speculation.take(id, layout.files.get(id)!, answers)
    expect(pulled?.canonical).toBe(remote.details[id]!.body)
    speculation.release()
  })
})

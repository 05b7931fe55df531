/** The preview's kept renderings: a body is rendered again only when what it is made of changed. */
import path from 'node:path'
import {writeFile} from 'node:fs/promises'
import {afterAll, describe, expect, it, vi} from 'vitest'
import {createRescanner} from '../../src/local/rescan.js'
import {toModel} from '../../src/preview/model.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

const rendered = vi.hoisted(() => ({count: new Map<string, number>()}))
vi.mock('../../src/preview/html.js', async (original) => {
  const actual = await original<typeof import('../../src/preview/html.js')>()
  return {
    ...actual,
    renderBody: (node: {path: string}, model: never) => {
      rendered.count.set(node.path, (rendered.count.get(node.path) ?? 0) + 1)
      return actual.renderBody(node as never, model)
    }
  }
})
const {RenderedBodies} = await import('../../src/preview/rendered.js')

const folders = temporaryFolders('preview-rendered')
afterAll(() => folders.removeAll())

describe('RenderedBodies', () => {
  it('renders the saved document and the ones whose links moved again, no other', async () => {
    const dir = await folders.make()
    await writeFiles(dir, {
      'a.md': '# A\n\nTo [b](b.md).\n',
      'b.md': '# B\n\nB text.\n',
      'c.md': '# C\n\nTo [d](d.md).\n'
    })
    const rescanner = createRescanner(dir, {links: {brokenLinks: 'warn'}})
    const bodies = new RenderedBodies()
    const renderAll = (model: ReturnType<typeof toModel>) => {
      for (const file of ['a.md', 'b.md', 'c.md']) bodies.html(model.byPath[file]!, model)
    }
    renderAll(toModel(await rescanner.scan()))
    renderAll(toModel(await rescanner.scan([])))
    expect(Object.fromEntries(rendered.count)).toEqual({'a.md': 1, 'b.md': 1, 'c.md': 1})
    await writeFile(path.join(dir, 'b.md'), '# B\n\nB edited.\n')
    renderAll(toModel(await rescanner.scan(['b.md'])))
    expect(Object.fromEntries(rendered.count)).toEqual({'a.md': 1, 'b.md': 2, 'c.md': 1})
    // c.md's link to d.md now resolves: its body is the same, its rendering is not.
    await writeFile(path.join(dir, 'd.md'), '# D\n\nD.\n')
    const model = toModel(await rescanner.scan(['d.md']))
    renderAll(model)
    expect(Object.fromEntries(rendered.count)).toEqual({'a.md': 1, 'b.md': 2, 'c.md': 2})
    expect(bodies.html(model.byPath['c.md']!, model)).toContain('href="/a/d.md"')
  })

  it('keeps the pages shown last only, within its bound, and the parsed trees not at all', async () => {
    const dir = await folders.make()
    await writeFiles(dir, {'p.md': '# P\n\nP.\n', 'q.md': '# Q\n\nQ.\n', 'r.md': '# R\n\nR.\n'})
    const model = toModel(await createRescanner(dir, {keptTrees: 0}).scan())
    const bodies = new RenderedBodies(2)
    rendered.count.clear()
    for (const file of ['p.md', 'q.md', 'p.md', 'r.md']) bodies.html(model.byPath[file]!, model)
    expect(bodies.size).toBe(2)
    // q.md was shown longest ago: dropped; p.md, shown again since, kept.
    bodies.html(model.byPath['p.md']!, model)
    bodies.html(model.byPath['q.md']!, model)
    expect(Object.fromEntries(rendered.count)).toEqual({'p.md': 1, 'q.md': 2, 'r.md': 1})
    expect(Object.values(model.byPath).filter((node) => node.tree !== undefined)).toEqual([])
  })
})

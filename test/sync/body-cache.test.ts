/**
 * The body cache and render keys: an unchanged body is neither parsed nor
 * rendered again, yet everything a body's rendering depends on (its text,
 * the ids of the documents it links to, the URLs of its files, the kbsync
 * version) still makes it re-rendered and re-sent when it changes.
 */
import {cp, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {BodyCache, bodyCachePath, scanFolder} from '../../src/local/index.js'
import {contextOf, push, renderBody} from '../../src/sync/index.js'
import {planRenderContext} from '../../src/sync/shared/render-context.js'
import {FakeClient} from './fake-client.js'

const temporary: string[] = []
afterAll(async () => {
  for (const dir of temporary) await rm(dir, {recursive: true, force: true})
})

async function copyTree(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-body-cache-'))
  temporary.push(dir)
  await cp(path.resolve('fixtures/trees', name), dir, {recursive: true})
  return dir
}

async function scanWithCache(dir: string) {
  return scanFolder(dir, {cache: await BodyCache.load(dir)})
}

describe('the body cache', () => {
  it('keeps a scan from parsing unchanged bodies, with the same refs and diagnostics', async () => {
    const dir = await copyTree('basic')
    await writeFile(path.join(dir, 'notes.md'), '# Notes\n\n#### Too deep\n\nSee [the guide](guides/install.md).\n')
    const fresh = await scanWithCache(dir)
    expect(fresh.byPath['welcome.md']!.tree).toBeDefined()
    const cached = await scanWithCache(dir)
    for (const node of Object.values(cached.byPath)) expect(node.tree).toBeUndefined()
    expect(cached.diagnostics).toEqual(fresh.diagnostics)
    expect(cached.diagnostics.some((d) => d.file === 'notes.md' && d.line === 3)).toBe(true)
    for (const [key, node] of Object.entries(fresh.byPath)) {
      expect(cached.byPath[key]!.refs).toEqual(node.refs)
      expect(cached.byPath[key]!.resolutions).toEqual(node.resolutions)
    }
    expect(cached.assets).toEqual(fresh.assets)

    // Code in the new line: a body the scan must parse (a plain one is read without a parse, see plain-body.ts).
    await writeFile(
      path.join(dir, 'faq.md'),
      (await readFile(path.join(dir, 'faq.md'), 'utf8')) + '\nOne more `line`.\n'
    )
    const edited = await scanWithCache(dir)
    expect(
      Object.entries(edited.byPath)
        .filter(([, node]) => node.tree)
        .map(([key]) => key)
    ).toEqual(['faq.md'])
  })

  it('keeps at most the allowed number of parsed trees; the other bodies render the same, parsed again', async () => {
    const dir = await copyTree('basic')
    const full = await scanFolder(dir)
    const lean = await scanFolder(dir, {keptTrees: 1})
    const withBody = Object.keys(full.byPath).filter((key) => full.byPath[key]!.body !== undefined)
    expect(withBody.length).toBeGreaterThan(2)
    expect(withBody.filter((key) => lean.byPath[key]!.tree).length).toBe(1)
    const ids = new Map(Object.keys(full.byPath).map((key, i) => [key, `ID${i}`]))
    const context = (scan: typeof full) =>
      planRenderContext(scan, {rootTopicId: null, items: {}, top: [], details: {}, permissions: {}}, ids, {
        version: 1,
        rootTopicId: null,
        items: {},
        assets: {}
      } as never)
    for (const key of withBody)
      expect(renderBody(lean.byPath[key]!, context(lean)).body).toBe(renderBody(full.byPath[key]!, context(full)).body)
  })

  it('resolves cached references against the folder as it is now', async () => {
    const dir = await copyTree('basic')
    await scanWithCache(dir)
    await rm(path.join(dir, 'guides', 'install.md'))
    const scan = await scanWithCache(dir)
    expect(scan.diagnostics.filter((d) => d.rule === 'missing-link-target').map((d) => d.file)).toContain('welcome.md')
  })

  it('is ignored when it is corrupt or written by another version', async () => {
    const dir = await copyTree('basic')
    const fresh = await scanWithCache(dir)
    const file = bodyCachePath(dir)
    const data = JSON.parse(await readFile(file, 'utf8')) as {format: string; bodies: Record<string, {refs: unknown[]}>}
    expect(Object.keys(data.bodies)).toHaveLength(
      Object.values(fresh.byPath).filter((n) => n.body !== undefined).length
    )
    // A cache whose facts lie would show here: another format must not be read at all.
    for (const facts of Object.values(data.bodies)) facts.refs = []
    await writeFile(file, JSON.stringify({...data, format: 'kbsync-body-cache/1 0.0.0-other'}))
    const other = await scanWithCache(dir)
    expect(other.byPath['welcome.md']!.tree).toBeDefined()
    expect(other.byPath['welcome.md']!.refs).toEqual(fresh.byPath['welcome.md']!.refs)
    await writeFile(file, '{"format": ')
    const corrupt = await scanWithCache(dir)
    expect(corrupt.byPath['welcome.md']!.refs).toEqual(fresh.byPath['welcome.md']!.refs)
    expect(corrupt.diagnostics).toEqual(fresh.diagnostics)
  })

  it('keeps only the bodies the last scan saw', async () => {
    const dir = await copyTree('basic')
    await scanWithCache(dir)
    const before = Object.keys(
      (JSON.parse(await readFile(bodyCachePath(dir), 'utf8')) as {bodies: object}).bodies
    ).length
    await rm(path.join(dir, 'faq.md'))
    await scanWithCache(dir)
    const after = Object.keys(
      (JSON.parse(await readFile(bodyCachePath(dir), 'utf8')) as {bodies: object}).bodies
    ).length
    expect(after).toBe(before - 1)
  })
})

describe('render keys', () => {
  it('a no-op push renders nothing, yet a new id of a link target rewrites the linking body', async () => {
    const dir = await copyTree('basic')
    const client = new FakeClient()
    expect((await push({dir, client})).failed).toEqual([])
    const state = JSON.parse(await readFile(path.join(dir, '.kbsync', 'state.json'), 'utf8')) as {
      items: Record<string, {renderKey?: string}>
    }
    expect(state.items['welcome.md']!.renderKey).toMatch(/^[0-9a-f]{64}$/)

    client.calls = []
    const noop = await push({dir, client})
    expect(client.calls).toEqual(['GET structure'])
    expect(noop.plan.ops).toEqual([])
    // Neither parsed nor rendered: rendering would have parsed the cached body into a tree.
    for (const node of Object.values(contextOf(noop.plan).scan.byPath)) expect(node.tree).toBeUndefined()

    // The platform loses the article welcome.md links to: it is created again under a new id,
    // and welcome.md, unchanged on disk, must be rewritten to link to that id.
    const install = [...client.items.values()].find((item) => item.title === 'Installation')!
    client.items.delete(install.id)
    client.calls = []
    const result = await push({dir, client})
    expect(result.failed).toEqual([])
    const again = [...client.items.values()].find((item) => item.title === 'Installation')!
    expect(again.id).not.toBe(install.id)
    const welcome = [...client.items.values()].find((item) => item.title === 'Welcome')!
    expect(welcome.body).toContain(`data-article-id="${again.id}"`)
    expect(welcome.body).not.toContain(install.id)
    expect(result.plan.ops.map((op) => `${op.op} ${op.path}`)).toEqual(
      expect.arrayContaining(['create guides/install.md', 'update welcome.md'])
    )
  })

  it('a state written before render keys still gives a no-op push (the body is rendered and compared)', async () => {
    const dir = await copyTree('basic')
    const client = new FakeClient()
    await push({dir, client})
    const file = path.join(dir, '.kbsync', 'state.json')
    const state = JSON.parse(await readFile(file, 'utf8')) as {items: Record<string, {renderKey?: string}>}
    for (const entry of Object.values(state.items)) delete entry.renderKey
    await writeFile(file, JSON.stringify(state))
    client.calls = []
    const result = await push({dir, client})
    expect(client.calls).toEqual(['GET structure'])
    expect(result.plan.ops).toEqual([])
    const refreshed = JSON.parse(await readFile(file, 'utf8')) as {items: Record<string, {renderKey?: string}>}
    expect(refreshed.items['welcome.md']!.renderKey).toMatch(/^[0-9a-f]{64}$/)
  })
})

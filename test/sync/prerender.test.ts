/**
 * Rendering ahead: the documents offered are rendered one per event-loop
 * turn, only when every id and URL their bodies use is known (else only
 * parsed), never after `stop`; and the write then reuses the body rendered
 * ahead.
 */
import {cp, mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {BodyCache, scanFolder, type LocalNode} from '../../src/local/index.js'
import {Prerenderer} from '../../src/sync/push/prerender.js'
import {renderBody, type RenderContext} from '../../src/sync/shared/render.js'

const temporary: string[] = []
afterAll(async () => {
  for (const dir of temporary) await rm(dir, {recursive: true, force: true})
})

/** A scan whose bodies all come from the body cache: no tree is parsed until something renders. */
async function cachedScan() {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-prerender-'))
  temporary.push(dir)
  await cp(path.resolve('fixtures/trees/basic'), dir, {recursive: true})
  await scanFolder(dir, {cache: await BodyCache.load(dir)})
  const scan = await scanFolder(dir, {cache: await BodyCache.load(dir)})
  for (const node of Object.values(scan.byPath)) expect(node.tree).toBeUndefined()
  return scan
}

function contextWith(
  ids: Record<string, string>,
  urls: Record<string, string>,
  hashes: Record<string, string>
): RenderContext {
  return {idOf: (p) => ids[p], rootTopicId: null, hashOf: (p) => hashes[p], fileRef: (sha) => urls[sha]}
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve))
}

describe('rendering ahead', () => {
  it('renders a document whose links and files are all known, and the write reuses that render', async () => {
    const scan = await cachedScan()
    const faq = scan.byPath['faq.md']!
    const welcome = scan.byPath['welcome.md']!
    const hashes = Object.fromEntries(Object.values(scan.assets).map((a) => [a.path, a.sha256]))
    const ids = Object.fromEntries(Object.keys(scan.byPath).map((p, i) => [p, `id${i}`]))
    // welcome.md shows img/logo.png, whose URL is not known: it must wait for its upload.
    const context = contextWith(ids, {}, hashes)
    const ahead = new Prerenderer(context, process.cwd())
    ahead.offer([welcome, faq])
    await turns(4)
    expect(faq.tree).toBeDefined()
    // welcome.md is parsed ahead, not rendered: a render with placeholders would be wasted.
    expect(welcome.tree).toBeDefined()
    const logo = hashes['img/logo.png']!
    expect(renderBody(welcome, contextWith(ids, {[logo]: 'https://files.example/logo'}, hashes)).body).toContain(
      'https://files.example/logo'
    )
    const kept = structuredClone(faq.tree)
    const ahead1 = renderBody(faq, context)
    // Rendering rewrites links in a copy: the kept tree stays as parsed for the next render.
    expect(faq.tree).toEqual(kept)
    expect(ahead1.missingLinks).toEqual([])
    // Same inputs: the write gets the very render made ahead.
    expect(renderBody(faq, contextWith(ids, {}, hashes))).toBe(ahead1)
    // Another id for a link target: rendered again.
    const renamed = Object.fromEntries(Object.entries(ids).map(([p, id]) => [p, id + 'x']))
    const again = renderBody(faq, contextWith(renamed, {}, hashes))
    expect(again).not.toBe(ahead1)
    expect(again.body).toContain(ids['welcome.md'] + 'x')
  })

  it('renders one document per event-loop turn, and nothing after stop', async () => {
    const scan = await cachedScan()
    const nodes = Object.values(scan.byPath).filter(
      (node): node is LocalNode => node.body !== undefined && !(node.resolutions ?? []).some((r) => r && 'asset' in r)
    )
    expect(nodes.length).toBeGreaterThanOrEqual(2)
    const ids = Object.fromEntries(Object.keys(scan.byPath).map((p, i) => [p, `id${i}`]))
    const ahead = new Prerenderer(contextWith(ids, {}, {}), process.cwd())
    ahead.offer(nodes)
    await turns(1)
    expect(nodes.filter((node) => node.tree).length).toBe(1)
    ahead.stop()
    await turns(nodes.length + 2)
    expect(nodes.filter((node) => node.tree).length).toBe(1)
  })
})

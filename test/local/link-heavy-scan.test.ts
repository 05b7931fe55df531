/**
 * A scan of link-heavy articles holds what a plain tree's scan holds: the
 * trees it keeps for rendering are bounded by their nodes, not by their
 * count (an article of hundreds of links has a tree many times a plain
 * one's), and every link to the same document shares one resolution
 * instead of a few objects of its own per link.
 */
import {setFlagsFromString} from 'node:v8'
import {runInNewContext} from 'node:vm'
import {afterAll, describe, expect, it} from 'vitest'
import {BodyCache, keptTreeNodesMax, scanFolder, treeNodes, type LocalNode} from '../../src/local/index.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

setFlagsFromString('--expose-gc')
// A full collection, so that the heap in use is what stays alive.
const collect = runInNewContext('gc') as () => void

const folders = temporaryFolders('link-heavy-scan')
afterAll(() => folders.removeAll())

/** `count` articles, each with `links` links spread over the others. */
async function linkHeavyFolder(count: number, links: number): Promise<string> {
  const dir = await folders.make()
  const files: Record<string, string> = {}
  for (let page = 0; page < count; page++) {
    const lines = Array.from(
      {length: links},
      (_, n) => `- See [page ${(page + n + 1) % count}](page-${(page + n + 1) % count}.md).`
    )
    // The inline code makes each body one the scan parses (a plain body is read from a pattern, with no tree).
    files[`page-${page}.md`] = `# Page ${page}\n\nRun \`make\` first.\n\n${lines.join('\n')}\n`
  }
  await writeFiles(dir, files)
  return dir
}

const keptNodes = (nodes: LocalNode[]) => nodes.reduce((sum, node) => sum + (node.tree ? treeNodes(node.tree) : 0), 0)

describe('a scan of link-heavy articles', () => {
  it('keeps trees within a budget of nodes, whatever their count', async () => {
    // 10 trees of 1,500 links (some 9,000 nodes each): all 10 under a cap of 256 trees, 90,000 nodes.
    const scan = await scanFolder(await linkHeavyFolder(10, 1_500))
    const nodes = Object.values(scan.byPath)
    const kept = nodes.filter((node) => node.tree)
    expect(kept.length).toBeGreaterThan(0)
    expect(keptNodes(nodes)).toBeLessThanOrEqual(keptTreeNodesMax)
    expect(kept.length).toBeLessThan(10)
  })

  it('shares one resolution and one link per linked document across the folder', async () => {
    const scan = await scanFolder(await linkHeavyFolder(12, 40))
    const nodes = Object.values(scan.byPath).filter((node) => node.kind === 'article')
    const resolutions = new Set<object>()
    const links = new Set<object>()
    let count = 0
    for (const node of nodes) {
      for (const resolved of node.resolutions ?? [])
        if (resolved && 'link' in resolved) {
          count++
          resolutions.add(resolved)
        }
      for (const link of node.refs.links) links.add(link)
    }
    // 12 pages of 40 links each, all to the 12 pages: 480 links, 12 documents.
    expect(count).toBe(480)
    expect(resolutions.size).toBe(12)
    expect(links.size).toBe(12)
    // Each body still lists the documents it links to once, in order.
    expect(scan.byPath['page-0.md']!.refs.links.map((link) => link.target).slice(0, 3)).toEqual([
      'page-1.md',
      'page-2.md',
      'page-3.md'
    ])
  })
})

/** `count` articles in `articles/`, each with `links` links to the others written as `../articles/page-N.md`. */
async function linkedArticles(count: number, links: number): Promise<string> {
  const dir = await folders.make()
  const files: Record<string, string> = {}
  for (let page = 0; page < count; page++) {
    const lines = Array.from({length: links}, (_, n) => `- [${n}](../articles/page-${(page + n + 1) % count}.md)`)
    files[`articles/page-${page}.md`] = `# Page ${page}\n\nRun \`make\` first.\n\n${lines.join('\n')}\n`
  }
  await writeFiles(dir, files)
  return dir
}

/** The heap a scan of `dir` holds at its end (its result, but for kept trees, and the body cache's entries), in bytes. */
async function heldByScan(dir: string): Promise<number> {
  collect()
  const before = process.memoryUsage().heapUsed
  const cache = BodyCache.none()
  const scan = await scanFolder(dir, {cache})
  // The trees kept for rendering are bounded by their own budget (above): not what is measured here.
  for (const node of Object.values(scan.byPath)) delete node.tree
  collect()
  const held = process.memoryUsage().heapUsed - before
  // Alive until measured.
  expect(Object.keys(scan.byPath).length).toBeGreaterThan(0)
  expect(cache).toBeDefined()
  return held
}

describe('the references a scan holds', () => {
  it('cost some tens of bytes a link, not hundreds, at two sizes', {timeout: 120_000}, async () => {
    // 40 and 80 articles of 300 links: what the 12,000 links more cost.
    const links = 300
    const smallDir = await linkedArticles(40, links)
    // The first scan loads and compiles the code the others run: not held by a scan.
    await heldByScan(smallDir)
    const small = await heldByScan(smallDir)
    const large = await heldByScan(await linkedArticles(80, links))
    const perLink = (large - small) / (40 * links)
    // Each link: its text in the file and the body (some 30 bytes each), its reference (a small object of one
    // shared hidden class, its URL one string per target), its resolution's slot. Before: a hidden class and a
    // property array of its own per reference (spread objects), and its URL a slice of the body: 400 bytes and more.
    expect(perLink).toBeGreaterThan(0)
    expect(perLink).toBeLessThan(250)
  })
})

/**
 * A scan of link-heavy articles holds what a plain tree's scan holds: the
 * trees it keeps for rendering are bounded by their nodes, not by their
 * count (an article of hundreds of links has a tree many times a plain
 * one's), and every link to the same document shares one resolution
 * instead of a few objects of its own per link.
 */
import {afterAll, describe, expect, it} from 'vitest'
import {keptTreeNodesMax, scanFolder, treeNodes, type LocalNode} from '../../src/local/index.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

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

/**
 * A push of link-heavy articles in link cycles parses each body at most
 * twice (issue 32): once in the scan, once for its provisional create when
 * the scan could not keep its tree. The whole write that follows fills the
 * link ids into the template the provisional render left, parsing nothing;
 * it parsed each body again once the trees kept for provisional documents
 * were over their budget of nodes (articles of 300 links fill it at about
 * 80). Through the library's push against the real local server; the
 * stored bodies are the whole renders, and a second push writes nothing.
 */
import {afterAll, describe, expect, it} from 'vitest'
import {scanParses} from '../../src/local/index.js'
import {bodyTreeParses} from '../../src/local/markdown.js'
import {push} from '../../src/sync/index.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'
import {useLocalServer} from './local-server.js'
import {bodyOf} from './push-helpers.js'

const local = useLocalServer()
const folders = temporaryFolders('push-link-parses')
afterAll(() => folders.removeAll())

/** `count` articles, each with `links` links spread over the others (every one in a link cycle). */
async function linkHeavyFolder(count: number, links: number): Promise<string> {
  const dir = await folders.make()
  const files: Record<string, string> = {}
  for (let page = 0; page < count; page++) {
    const lines = Array.from({length: links}, (_, n) => {
      const to = (page + (n % (count - 1)) + 1) % count
      return `- See [page ${to}](page-${to}.md), item ${n}.`
    })
    // The inline code makes each body one the scan parses (a plain body is read from a pattern, with no tree).
    files[`page-${page}.md`] = `# Page ${page}\n\nRun \`make\` first.\n\n${lines.join('\n')}\n`
  }
  await writeFiles(dir, files)
  return dir
}

describe('a push of link-heavy articles in link cycles', () => {
  it('parses each body at most twice, and stores every link whole', async () => {
    const count = 24
    const dir = await linkHeavyFolder(count, 1_000)
    const rootTopicId = (await local.client.createItem({type: 'topic', title: 'parses', parent_topic_id: null})).id
    const scanned = scanParses()
    const rendered = bodyTreeParses()
    const result = await push({dir, client: local.client, rootTopicId, concurrency: 4})
    expect(result.failed).toEqual([])
    const parses = {scan: scanParses() - scanned, render: bodyTreeParses() - rendered}
    expect(parses.scan).toBe(count)
    // Before: the whole writes parsed again each body whose tree was let go of (more parses than documents).
    expect(parses.render).toBeLessThanOrEqual(count)
    const children = await local.client.getChildren(rootTopicId)
    const stored = await Promise.all(children.map(async (node) => bodyOf(await local.client.getItem(node.id))))
    expect(stored).toHaveLength(count)
    for (const body of stored) {
      expect(body).not.toContain('PENDING')
      expect(body.match(/data-node="articleLink"/g)).toHaveLength(1_000)
    }
    const again = await push({dir, client: local.client, rootTopicId, concurrency: 4})
    expect(again.failed).toEqual([])
    expect(again.writes).toBe(0)
  }, 120_000)
})

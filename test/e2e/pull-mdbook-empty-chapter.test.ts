/**
 * End-to-end: an mdBook chapter (a page with sub-chapters, a topic on the
 * platform) whose last sub-chapter moves away or is deleted on the web stays
 * a topic. The pull changes `SUMMARY.md` by that line only and keeps the
 * chapter's folder (a `.gitkeep`); the push after it, from the tree as git
 * checks it out, creates nothing and orphans nothing; a second pull and push
 * write nothing; an article created in the chapter on the web lands in its
 * folder and under its entry.
 */
import {readFile, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {temporaryFolders} from '../temp-folders.js'
import {copyTree, ownSites, snapshot} from './docs-sites.js'
import {useLocalServer} from './local-server.js'
import {asCloned, expectSettled, itemTitled, runOk} from './settle.js'

const local = useLocalServer()
const temporary = temporaryFolders('pull-mdbook-empty-chapter')

afterAll(() => temporary.removeAll())

const find = (root: string, title: string) => itemTitled(local, root, title)

const run = (args: string[]) => runOk(local, args)

/** Our mdBook site with "Debug output" the only sub-chapter of "Printing". */
async function bookWithOneSubChapter(): Promise<string> {
  const src = await copyTree(ownSites.mdbook, await temporary.make())
  await rm(path.join(src, 'basics/printing/display.md'))
  const summary = await readFile(path.join(src, 'SUMMARY.md'), 'utf8')
  await writeFile(path.join(src, 'SUMMARY.md'), summary.replace(/^.*\(basics\/printing\/display\.md\)\n/m, ''))
  return src
}

/** How the last sub-chapter leaves on the web, and the `SUMMARY.md` lines that must change (and none else). */
const departures = [
  {
    how: 'moves away',
    leave: async (root: string) =>
      local.client.moveItem((await find(root, 'Debug output')).id, (await find(root, 'Types')).id),
    // A move keeps the file's name, as `git mv` would.
    added: ['    - [Debug output](types/debug.md)']
  },
  {
    how: 'is deleted',
    leave: async (root: string) => local.client.deleteItem((await find(root, 'Debug output')).id),
    added: []
  }
]

describe.each(departures)('an mdBook chapter whose last sub-chapter $how on the web', ({leave, added}) => {
  it('stays a topic: SUMMARY.md changes by that line, the push creates and orphans nothing', async () => {
    const src = await bookWithOneSubChapter()
    const root = (await local.client.createItem({type: 'topic', title: 'Book', parent_topic_id: null})).id
    const push = ['push', src, '--root-topic', root, '--broken-links=warn']
    const pull = ['pull', src, '--root-topic', root]
    await run(push)
    const printing = await find(root, 'Printing')
    expect(printing.type).toBe('topic')
    const start = await snapshot(src)

    await leave(root)
    await run(pull)
    const after = await snapshot(src)
    const summary = after['SUMMARY.md']!.split('\n')
    const was = start['SUMMARY.md']!.split('\n')
    expect(was.filter((line) => !summary.includes(line))).toEqual([
      '        - [Debug output](basics/printing/debug.md)'
    ])
    expect(summary.filter((line) => !was.includes(line))).toEqual(added)
    expect(after['basics/printing.md']).toBe(start['basics/printing.md'])
    // The chapter keeps its folder, and git keeps it too.
    expect(after['basics/printing/.gitkeep']).toBe('')

    // As git checks it out (no empty folder), the push after the pull keeps "Printing" the topic it is.
    await asCloned(src)

    // Nothing created, nothing orphaned.
    local.server.resetLog()
    const output = await run(push)
    expect(local.server.counts().writes, output).toBe(0)
    expect(output).not.toMatch(/orphan/i)
    const tree = await local.client.getTree(root)
    const basics = tree.find((node) => node.title === 'Basics')!
    const named = (basics.children ?? []).filter((node) => node.title === 'Printing')
    expect(named.map((node) => [node.id, node.type])).toEqual([[printing.id, 'topic']])

    // Settled: a pull and a push after it write nothing.
    await expectSettled(local, src, pull, push)

    // An article created in it on the web goes back into the chapter's folder and entry.
    await local.client.createItem({type: 'article', title: 'Formatting', parent_topic_id: printing.id, body: 'Pad.'})
    await run(pull)
    const refilled = await snapshot(src)
    expect(refilled['basics/printing/Formatting.md']).toContain('Pad.')
    const lines = refilled['SUMMARY.md']!.split('\n')
    expect(lines.slice(lines.indexOf('    - [Printing](basics/printing.md)'))[1]).toBe(
      '        - [Formatting](basics/printing/Formatting.md)'
    )
    await expectSettled(local, src, pull, push)
  }, 300_000)
})

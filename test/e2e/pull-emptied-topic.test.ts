/**
 * End-to-end, in every layout the scan knows (plain folders, a page beside
 * its folder, Hugo bundles, `README.md`/`index.md` pages, Docusaurus
 * `_category_` files, MkDocs `nav`, Starlight, mdBook): a topic whose last
 * article is deleted on the web stays a topic. The pull keeps its folder
 * (`kept-folders.ts`); the push after it, from the tree as git checks it out
 * (no empty folder), creates nothing and orphans nothing; a pull and a push
 * after that write nothing; an article created in the topic on the web lands
 * in its folder, and the tree settles again.
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import type {StructureNode} from '../../src/api/types.js'
import {temporaryFolders} from '../temp-folders.js'
import {copyTree, ownSites, snapshot} from './docs-sites.js'
import {useLocalServer} from './local-server.js'
import {asCloned, expectSettled, runOk} from './settle.js'

const local = useLocalServer()
const temporary = temporaryFolders('pull-emptied-topic')

afterAll(() => temporary.removeAll())

const run = (args: string[]) => runOk(local, args)

/** The topics whose children are all articles: deleting those empties them. */
function leafTopics(nodes: StructureNode[]): StructureNode[] {
  const found: StructureNode[] = []
  const stack = [...nodes]
  while (stack.length > 0) {
    const node = stack.pop()!
    const children = node.children ?? []
    stack.push(...children)
    if (node.type === 'topic' && children.length > 0 && children.every((child) => child.type === 'article'))
      found.push(node)
  }
  return found
}

/** Each topic's id and type, by title path: what must not change. */
function topicsOf(nodes: StructureNode[]): string[] {
  const found: string[] = []
  const stack = nodes.map((node) => ({node, at: node.title}))
  while (stack.length > 0) {
    const {node, at} = stack.pop()!
    if (node.type === 'topic') found.push(`${at} ${node.id}`)
    stack.push(...(node.children ?? []).map((child) => ({node: child, at: `${at}/${child.title}`})))
  }
  return found.sort()
}

/** A plain tree whose topic "Guide" has its page beside its folder (`guide.md` next to `guide/`: Jekyll, MkDocs, Docusaurus). */
async function pageBesideFolder(): Promise<string> {
  const dir = await temporary.make()
  await mkdir(path.join(dir, '.git'))
  const files = {
    'intro.md': '# Intro\n\nHello.\n',
    'guide.md': '# Guide\n\nThe guide.\n',
    'guide/setup.md': '# Setup\n\nSet it up.\n',
    'guide/usage.md': '# Usage\n\nUse it.\n'
  }
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), {recursive: true})
    await writeFile(path.join(dir, file), text)
  }
  return dir
}

const layouts: Array<{name: string; make: () => Promise<string>}> = [
  {name: 'plain folders, a page beside its folder', make: pageBesideFolder},
  ...Object.values(ownSites).map((tree) => ({
    name: tree.name,
    make: async () => copyTree(tree, await temporary.make())
  }))
]

describe.each(layouts)('$name: a topic whose last article is deleted on the web', ({make}) => {
  it('stays a topic: the push creates and orphans nothing, and a new article lands in its folder', async () => {
    const src = await make()
    const root = (await local.client.createItem({type: 'topic', title: 'Site', parent_topic_id: null})).id
    const push = ['push', src, '--root-topic', root, '--broken-links=warn']
    const pull = ['pull', src, '--root-topic', root]
    await run(push)
    const leaves = leafTopics(await local.client.getTree(root))
    expect(leaves.length).toBeGreaterThan(0)
    for (const topic of leaves) for (const child of topic.children ?? []) await local.client.deleteItem(child.id)
    const topics = topicsOf(await local.client.getTree(root))

    const before = await snapshot(src)
    await run(pull)
    const after = await snapshot(src)
    // The folders the deleted articles were in: the topics' folders.
    const folders = Object.keys(before)
      .filter((file) => after[file] === undefined)
      .map((file) => path.posix.dirname(file))
    await asCloned(src)

    // Nothing created, nothing deleted, nothing orphaned (a page that linked to a deleted article may be updated).
    local.server.resetLog()
    const output = await run(push)
    expect(local.server.counts().create ?? 0, output).toBe(0)
    expect(local.server.counts().delete ?? 0, output).toBe(0)
    expect(output).not.toMatch(/not in the folder|orphan/i)
    expect(topicsOf(await local.client.getTree(root))).toEqual(topics)
    await expectSettled(local, src, pull, push)

    // An article created in each emptied topic on the web lands in its folder.
    for (const [i, topic] of leaves.entries())
      await local.client.createItem({
        type: 'article',
        title: `Fresh ${i}`,
        parent_topic_id: topic.id,
        body: `New ${i}.`
      })
    await run(pull)
    const refilled = await snapshot(src)
    for (const i of leaves.keys()) {
      const file = Object.keys(refilled).find((name) => refilled[name]!.includes(`New ${i}.`))
      expect(file, `Fresh ${i}`).toBeDefined()
      expect(folders).toContain(path.posix.dirname(file!))
    }
    await expectSettled(local, src, pull, push)
    expect(topicsOf(await local.client.getTree(root)).length).toBe(topics.length)
  }, 300_000)
})

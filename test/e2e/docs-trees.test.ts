/**
 * End-to-end: documentation trees as docs sites write them (mdBook,
 * MkDocs, Docusaurus) pushed through the CLI to the real local server. The
 * navigation files decide the remote tree's shape, titles and order; a
 * second push sends no write.
 */
import {rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import type {StructureNode} from '../../src/api/types.js'
import {useLocalServer} from './local-server.js'
import {bodyOf, cli, fixtureRepository, outline} from './push-helpers.js'

const local = useLocalServer()
const folders: string[] = []

afterAll(async () => {
  for (const dir of folders) await rm(dir, {recursive: true, force: true})
})

/** A copy of `fixtures/trees/<name>`, made a git repository (removed after the file's tests). */
const repository = (name: string) => fixtureRepository(name, folders)

/** Pushes `dir` under a fresh root topic; returns the root's id and the remote outline. */
async function pushTree(dir: string, title: string): Promise<{root: string; tree: StructureNode[]}> {
  const root = (await local.client.createItem({type: 'topic', title, parent_topic_id: null})).id
  const run = await cli(['push', dir, '--root-topic', root], local.env)
  expect(run.err).not.toMatch(/\berror\b/)
  expect(run.code).toBe(0)
  return {root, tree: await local.client.getTree(root)}
}

/** A second push of `dir` under `root`: zero writes. */
async function expectNoWrites(dir: string, root: string): Promise<void> {
  local.server.resetLog()
  const again = await cli(['push', dir, '--root-topic', root], local.env)
  expect(again.code).toBe(0)
  expect(local.server.counts().writes).toBe(0)
}

function find(nodes: StructureNode[], title: string): StructureNode {
  for (const node of nodes) {
    if (node.title === title) return node
    const inside = node.children ? findOrUndefined(node.children, title) : undefined
    if (inside) return inside
  }
  throw new Error(`no item titled ${title}`)
}

function findOrUndefined(nodes: StructureNode[], title: string): StructureNode | undefined {
  try {
    return find(nodes, title)
  } catch {
    return undefined
  }
}

describe('an mdBook tree', () => {
  it('follows SUMMARY.md: parts and chapters with sections are topics, titles from the entries, in the summary order; SUMMARY.md is not published', async () => {
    const dir = await repository('mdbook')
    const src = path.join(dir, 'src')
    const {root, tree} = await pushTree(src, 'Small book')
    expect(outline(tree)).toEqual([
      'The Small Book',
      'Foreword',
      '[T] Getting started',
      '  [T] Getting Started',
      '    Installation',
      '    Hello, World!',
      '  Programming a Guessing Game',
      '[T] Basic literacy',
      '  [T] Common Programming Concepts',
      '    Variables and Mutability',
      '    Data Types',
      'Appendix: Keywords',
      'notes'
    ])
    // A `##`-first chapter: titled by its entry, the heading not repeated in the body.
    const installation = await local.client.getItem(find(tree, 'Installation').id)
    expect(bodyOf(installation)).not.toContain('## Installation')
    expect(bodyOf(installation)).toContain('The first step is to install the tools.')
    // An entry's inline code is plain in the title, and the heading it matches leaves the body all the same.
    const hello = bodyOf(await local.client.getItem(find(tree, 'Hello, World!').id))
    expect(hello).toContain('Now write your first program.')
    expect(hello).not.toContain('World`')
    // A link to a chapter file is a link to its topic.
    expect(bodyOf(installation)).toContain(`data-topic-id="${find(tree, 'Getting Started').id}"`)
    const chapter = await local.client.getItem(find(tree, 'Getting Started').id)
    expect(bodyOf(chapter)).toContain("Let's start your journey!")
    await expectNoWrites(src, root)
  })
})

describe('a malformed navigation file', () => {
  it('fails the plan before any write, naming the file and the line, with how to fix it', async () => {
    const dir = await repository('mdbook')
    const src = path.join(dir, 'src')
    await writeFile(
      path.join(src, 'SUMMARY.md'),
      '# Summary\n\n- [Foreword](foreword.md)\n- Chapter one, without a link\n'
    )
    local.server.resetLog()
    const plan = await cli(['plan', src], local.env)
    expect(plan.code).toBe(2)
    expect(plan.err).toMatch(/SUMMARY\.md:4\b.*not a chapter/)
    expect(plan.err).toContain('- [Installation](installation.md)')
    expect(local.server.counts().writes).toBe(0)
  })
})

describe('an MkDocs tree', () => {
  it('follows the nav of mkdocs.yml above the folder: sections are topics, titles and order from the nav, links to URLs skipped', async () => {
    const dir = await repository('mkdocs')
    const docs = path.join(dir, 'docs')
    const {root, tree} = await pushTree(docs, 'Small project')
    expect(outline(tree)).toEqual([
      'Home',
      '[T] User Guide',
      '  Writing your docs',
      '  Styling your docs',
      '[T] About',
      '  Release Notes',
      '  License',
      'Getting started',
      'Extra page'
    ])
    // The nav's title differs from the page's heading: the heading stays in the body.
    expect(bodyOf(await local.client.getItem(find(tree, 'Home').id))).toContain('Welcome to Small Project')
    await expectNoWrites(docs, root)
  })
})

describe('a Docusaurus tree', () => {
  it('takes _category_ labels, positions and linked docs, and sidebar_label / sidebar_position; partials are not published', async () => {
    const dir = await repository('docusaurus')
    const docs = path.join(dir, 'docs')
    const {root, tree} = await pushTree(docs, 'Docusaurus site')
    expect(outline(tree)).toEqual([
      'Tutorial Intro',
      '[T] Guides',
      '  Setup',
      '  Basics',
      '  [T] Advanced guides',
      '    Caching',
      '[T] Tutorial - Basics',
      '  Create a Document',
      '  Create a Page',
      'Frequently asked questions'
    ])
    // The category's linked doc is the topic's body; an index.md is its folder's body.
    expect(bodyOf(await local.client.getItem(find(tree, 'Tutorial - Basics').id))).toContain(
      'The tutorial has two steps'
    )
    expect(bodyOf(await local.client.getItem(find(tree, 'Advanced guides').id))).toContain(
      'For those who know the basics.'
    )
    await expectNoWrites(docs, root)
  })
})

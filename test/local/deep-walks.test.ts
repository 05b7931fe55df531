/**
 * The walks over folders and over the remote structure are iterative (issue
 * 32): each gives what the recursion it replaced gave, on random shapes, and
 * a chain deeper than the recursion could go no longer overflows the stack.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import type {StructureNode} from '../../src/api/types.js'
import type {Diagnostic} from '../../src/local/diagnostic.js'
import {folderLayout, type LayoutNode, type LayoutTopic} from '../../src/local/layout.js'
import type {WalkedDir} from '../../src/local/walk.js'
import {allFolders, documentFolders, withoutFiles} from '../../src/local/walk-order.js'
import {navFromStructure} from '../../src/preview/structure-nav.js'

/** A random folder shape up to `depth` levels: names drawn from a few, so bodies (index.md, README.md, a file named like its folder) compete. */
function shapeArbitrary(depth: number): fc.Arbitrary<Shape> {
  return fc.record({
    names: fc.uniqueArray(fc.constantFrom('index.md', 'README.md', '_index.md', 'a.md', 'b.md', 'c.mdx'), {
      maxLength: 3
    }),
    others: fc.uniqueArray(fc.constantFrom('_permissions.yml', 'x.png'), {maxLength: 2}),
    dirs: depth === 0 ? fc.constant([]) : fc.array(shapeArbitrary(depth - 1), {maxLength: 3})
  })
}

const walkArbitrary = shapeArbitrary(4).map((shape) => toWalk(shape, ''))

interface Shape {
  names: string[]
  others: string[]
  dirs: Shape[]
}

function toWalk(shape: Shape, at: string): WalkedDir {
  const join = (name: string) => (at === '' ? name : `${at}/${name}`)
  const names = ['a', 'b', 'c']
  return {
    path: at,
    files: shape.names.map(join),
    others: shape.others.map(join),
    dirs: shape.dirs.map((dir, i) => toWalk(dir, join(names[i]!)))
  }
}

/** A folder chain `depth` deep, a document in each folder. */
function chain(depth: number): WalkedDir {
  const root: WalkedDir = {path: '', files: ['top.md'], others: [], dirs: []}
  let at = root
  for (let level = 0; level < depth; level++) {
    const folder = at.path === '' ? 'a' : `${at.path}/a`
    const next: WalkedDir = {path: folder, files: [`${folder}/p.md`], others: [], dirs: []}
    at.dirs.push(next)
    at = next
  }
  return root
}

// The recursions the walks replaced, kept here as the reference of their order.
const reference = {
  hasDocuments: (walk: WalkedDir): boolean => walk.files.length > 0 || walk.dirs.some(reference.hasDocuments),
  documentFolders: (walk: WalkedDir): WalkedDir[] => [
    walk,
    ...walk.dirs.filter(reference.hasDocuments).flatMap(reference.documentFolders)
  ],
  allFolders: (walk: WalkedDir): WalkedDir[] => [walk, ...walk.dirs.flatMap(reference.allFolders)],
  withoutFiles: (walk: WalkedDir, files: ReadonlySet<string>): WalkedDir => ({
    ...walk,
    files: walk.files.filter((file) => !files.has(file)),
    dirs: walk.dirs.map((dir) => reference.withoutFiles(dir, files))
  }),
  navFromStructure: (nodes: StructureNode[], href: (node: StructureNode) => string, currentId?: string): unknown[] =>
    nodes.map((node) => ({
      kind: node.type,
      title: node.title,
      href: href(node),
      ...(node.id === currentId ? {current: true} : {}),
      ...(node.type === 'topic' ? {children: reference.navFromStructure(node.children ?? [], href, currentId)} : {})
    }))
}

describe('folder walks', () => {
  it('list folders and copy walks in the order the recursion did', () => {
    fc.assert(
      fc.property(walkArbitrary, (walk) => {
        expect(allFolders(walk)).toEqual(reference.allFolders(walk))
        expect(documentFolders(walk)).toEqual(reference.documentFolders(walk))
        const drop = new Set(allFolders(walk).flatMap((folder) => folder.files.filter((_, i) => i % 2 === 0)))
        expect(withoutFiles(walk, drop)).toEqual(reference.withoutFiles(walk, drop))
      })
    )
  })

  it('lay out a folder chain deeper than a recursion can go', () => {
    const deep = chain(15_000)
    expect(() => reference.allFolders(deep)).toThrow(RangeError)
    expect(documentFolders(deep)).toHaveLength(15_001)
    expect(withoutFiles(deep, new Set(['top.md'])).files).toEqual([])
    const diagnostics: Diagnostic[] = []
    let node: LayoutNode | undefined = folderLayout(deep, diagnostics)
    let levels = 0
    while (node?.kind === 'topic') {
      levels++
      node = (node as LayoutTopic).children.find((child) => child.kind === 'topic')
    }
    expect(levels).toBe(15_001)
  })
})

/** The structure of a walk: an article per document, a topic per folder. */
function structureOf(walk: WalkedDir): StructureNode[] {
  const make = (dir: WalkedDir): StructureNode[] => [
    ...dir.files.map((file): StructureNode => ({id: file, type: 'article', title: file, parent_topic_id: null})),
    ...dir.dirs.map((sub): StructureNode => ({
      id: sub.path,
      type: 'topic',
      title: sub.path,
      parent_topic_id: null,
      children: make(sub)
    }))
  ]
  return make(walk)
}

describe('the structure navigation', () => {
  it('gives what the recursion gave', () => {
    fc.assert(
      fc.property(walkArbitrary, fc.nat(5), (walk, pick) => {
        const nodes = structureOf(walk)
        const ids = allFolders(walk).flatMap((folder) => folder.files)
        const current = ids[pick % Math.max(ids.length, 1)]
        const href = (node: StructureNode) => `/${node.id}`
        expect(navFromStructure(nodes, href, current)).toEqual(reference.navFromStructure(nodes, href, current))
      })
    )
  })

  it('takes a topic chain 30,000 deep', () => {
    const top: StructureNode[] = []
    let into = top
    for (let level = 0; level < 30_000; level++) {
      const children: StructureNode[] = []
      into.push({id: `t${level}`, type: 'topic', title: `T${level}`, parent_topic_id: null, children})
      into = children
    }
    expect(() => reference.navFromStructure(top, (node) => node.id)).toThrow(RangeError)
    expect(navFromStructure(top, (node) => node.id, 't29999')).toHaveLength(1)
  })
})

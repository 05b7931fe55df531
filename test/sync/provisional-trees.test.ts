/**
 * Provisionally created documents keep their trees until their whole write
 * within a budget of nodes, not of documents: a few hundred articles of
 * hundreds of links each held hundreds of megabytes under a count of 256.
 */
import type {Root} from 'mdast'
import {describe, expect, it} from 'vitest'
import {keptTreeNodesMax, treeNodes, type LocalNode} from '../../src/local/index.js'
import type {RunState} from '../../src/sync/push/item-step.js'
import {keepOrRelease, ProvisionalHold} from '../../src/sync/push/provisional-trees.js'
import type {RenderContext} from '../../src/sync/shared/render.js'

// No room for templates (`render-slots.test.ts`): what is left is the trees' budget.
const provisionalTrees = () => new ProvisionalHold(0)
const context: RenderContext = {
  idOf: () => undefined,
  rootTopicId: null,
  hashOf: () => undefined,
  fileRef: () => undefined
}

/** A tree of one paragraph of `links` links. */
function linkTree(links: number): Root {
  const children = Array.from({length: links}, (_, n) => ({
    type: 'link' as const,
    url: `page-${n}.md`,
    children: [{type: 'text' as const, value: `page ${n}`}]
  }))
  return {type: 'root', children: [{type: 'paragraph', children}]}
}

function provisionalNode(name: string, links: number): LocalNode {
  const node: Partial<LocalNode> = {
    path: name,
    kind: 'article',
    tree: linkTree(links),
    body: 'text',
    bodyKey: 'k',
    file: name
  }
  return node as LocalNode
}

describe('trees kept by provisional documents', () => {
  it('are bounded by their nodes, so heavy trees are let go of sooner than plain ones', () => {
    const run: Partial<RunState> = {provisionalTrees: provisionalTrees()}
    const heavy = Array.from({length: 20}, (_, n) => provisionalNode(`heavy-${n}.md`, 5_000))
    for (const node of heavy) keepOrRelease(run as RunState, node, context)
    const kept = heavy.filter((node) => node.tree)
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.length).toBeLessThan(20)
    expect(kept.reduce((sum, node) => sum + treeNodes(node.tree!), 0)).toBeLessThanOrEqual(keptTreeNodesMax)
    // Released on its whole write: its room goes to the next.
    run.provisionalTrees!.release(kept[0]!.path)
    const next = provisionalNode('next.md', 5_000)
    keepOrRelease(run as RunState, next, context)
    expect(next.tree).toBeDefined()
  })

  it('keep as many plain trees as before', () => {
    const run: Partial<RunState> = {provisionalTrees: provisionalTrees()}
    const plain = Array.from({length: 200}, (_, n) => provisionalNode(`plain-${n}.md`, 40))
    for (const node of plain) keepOrRelease(run as RunState, node, context)
    expect(plain.every((node) => node.tree)).toBe(true)
  })
})

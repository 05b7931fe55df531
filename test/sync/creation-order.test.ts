/**
 * The creation order of new items: siblings a navigation ordered wait for
 * each other; a document linking ahead to one that waits for it through the
 * order is created provisionally first; plain folders keep their old,
 * unordered (and faster) first push.
 */
import {describe, expect, it} from 'vitest'
import type {LocalNode, LocalTopic} from '../../src/local/index.js'
import {creationOrder} from '../../src/sync/push/creation-order.js'
import {byPriority, tasksOf} from '../../src/sync/push/tasks.js'
import {parentPathOf} from '../../src/sync/shared/parent-path.js'
import type {PlanOp, PushPlan} from '../../src/sync/shared/types.js'

/** A root holding `items` (`topic/` for a topic, links as `a.md>b.md`), ordered or not. */
function tree(items: string[], ordered: boolean): {ops: PlanOp[]; byPath: Record<string, LocalNode>} {
  const root: LocalTopic = {
    kind: 'topic',
    path: '',
    title: '',
    children: [],
    refs: {links: [], assets: []},
    ...(ordered ? {ordered} : {})
  }
  const byPath: Record<string, LocalNode> = {'': root}
  const ops: PlanOp[] = []
  for (const item of items) {
    const [key, ...targets] = item.split('>')
    const links = targets.map((target) => ({
      target,
      kind: target.endsWith('.md') ? ('article' as const) : ('topic' as const)
    }))
    const parent = key!.includes('/') ? key!.slice(0, key!.lastIndexOf('/')) : ''
    const node: LocalNode = key!.endsWith('.md')
      ? {
          kind: 'article',
          path: key!,
          parent,
          title: key!,
          source: '',
          sourceHash: '',
          hasFrontMatter: false,
          refs: {links, assets: []}
        }
      : {
          kind: 'topic',
          path: key!,
          parent,
          title: key!,
          children: [],
          refs: {links, assets: []},
          ...(ordered ? {ordered} : {})
        }
    byPath[key!] = node
    ;(byPath[parent] as LocalTopic).children.push(node)
    ops.push({op: 'create', path: key!, type: node.kind, title: key!, parentPath: parent, reason: 'new'})
  }
  return {ops, byPath}
}

describe('creationOrder', () => {
  it('chains the siblings of an ordered topic, and creates first, provisionally, a document linking ahead to one that waits for it', () => {
    const {ops, byPath} = tree(['intro.md>part/chapter.md', 'part', 'part/chapter.md>intro.md', 'end.md'], true)
    const order = creationOrder(ops, byPath, parentPathOf)
    expect([...order.after]).toEqual([
      ['part', 'intro.md'],
      ['end.md', 'part']
    ])
    expect([...order.provisionalFirst]).toEqual(['intro.md'])
  })

  it('leaves the siblings of a plain folder unordered, and breaks a cycle of links with one provisional create', () => {
    const {ops, byPath} = tree(['a.md>b.md', 'b.md>a.md', 'c.md'], false)
    const order = creationOrder(ops, byPath, parentPathOf)
    expect(order.after.size).toBe(0)
    expect([...order.provisionalFirst]).toEqual(['a.md'])
  })

  it('breaks a hub linked back by every chapter once, not at each chapter', () => {
    const chapters = Array.from({length: 20}, (_, i) => `c${i}.md>index.md>c${i + 1}.md`)
    const {ops, byPath} = tree(['index.md>c0.md', ...chapters, 'c20.md>index.md'], false)
    expect([...creationOrder(ops, byPath, parentPathOf).provisionalFirst]).toEqual(['index.md'])
  })

  it('ranks and orders a chain of 12,000 documents, each linking to the next, in stretches created side by side', () => {
    const length = 12_000
    const items = Array.from({length}, (_, i) => `step-${i}.md>step-${(i + 1) % length}.md`)
    const {ops, byPath} = tree(items, false)
    const tasks = byPriority(tasksOf({ops} as PushPlan, byPath, 8))
    expect(tasks).toHaveLength(length)
    // The cycle broken once, then once per 750 (12,000 / 2 / 8): 17 stretches, 17 more requests, not 12,000 creates one at a time.
    const provisional = tasks.filter((task) => task.provisionalFirst)
    expect(provisional.length).toBeGreaterThanOrEqual(16)
    expect(provisional.length).toBeLessThanOrEqual(18)
  })
})

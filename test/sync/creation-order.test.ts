/**
 * The creation order of new items: siblings a navigation ordered wait for
 * each other; a document linking ahead to one that waits for it through the
 * order is created provisionally first; plain folders keep their old,
 * unordered (and faster) first push.
 */
import {describe, expect, it} from 'vitest'
import type {LocalNode, LocalTopic} from '../../src/local/index.js'
import {creationOrder} from '../../src/sync/push/creation-order.js'
import {parentPathOf} from '../../src/sync/shared/parent-path.js'
import type {PlanOp} from '../../src/sync/shared/types.js'

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

  it('leaves the siblings of a plain folder unordered, and a cycle of links alone to be broken when it is met', () => {
    const {ops, byPath} = tree(['a.md>b.md', 'b.md>a.md', 'c.md'], false)
    const order = creationOrder(ops, byPath, parentPathOf)
    expect(order.after.size).toBe(0)
    expect(order.provisionalFirst.size).toBe(0)
  })
})

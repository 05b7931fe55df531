/**
 * The navigation edits of a pull cost the siblings once per folder (issue
 * 32): each created item's entry goes after the nearest sibling whose entry
 * stays, and main looked for it by scanning its siblings per created item
 * (a pull creating thousands of pages in one folder of an mkdocs.yml or
 * SUMMARY.md project read their square). The edits are the same.
 */
import {describe, expect, it} from 'vitest'
import {planNavigation, type NavigationInput} from '../../src/sync/pull/navigation-plan.js'
import type {PullOp, PullPlan} from '../../src/sync/pull/plan.js'
import type {LocalNode, ScanResult} from '../../src/local/index.js'
import type {RemoteItem, RemoteSnapshot} from '../../src/sync/shared/remote.js'

/** A root with one page listed in `SUMMARY.md` (line 1) and `created` pages made on the platform after it. */
function folder(created: number) {
  let reads = 0
  const ids = ['kept', ...Array.from({length: created}, (_, n) => `new-${n}`)]
  const top = new Proxy(ids, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++
      return Reflect.get(target, key, receiver) as unknown
    }
  })
  const items: Record<string, RemoteItem> = {}
  for (const id of ids) items[id] = {id, type: 'article', title: `Page ${id}`, parentId: null, children: []}
  const refs = {links: [], assets: []}
  const root: LocalNode = {path: '', kind: 'topic', title: '', refs, children: []}
  const kept: LocalNode = {
    path: 'kept.md',
    kind: 'article',
    title: 'Page kept',
    refs,
    sourceHash: '',
    hasFrontMatter: false,
    navigation: {file: 'SUMMARY.md', line: 1}
  }
  const byPath = {'': root, 'kept.md': kept}
  const scan = {dir: '', root, byPath, diagnostics: [], assets: {}, articleCount: 1} as ScanResult
  const remote = {items, top, rootTopicId: null} as RemoteSnapshot
  const ops: PullOp[] = ids.slice(1).map((id) => ({
    op: 'create',
    id,
    type: 'article',
    title: `Page ${id}`,
    path: `${id}.md`,
    file: `${id}.md`,
    reason: 'new on the platform'
  }))
  const files = Object.fromEntries(ids.map((id) => [id, `${id}.md`]))
  const plan = {ops, files} as PullPlan
  const input: NavigationInput = {scan, remote, current: new Map([['kept', 'kept.md']]), baseOf: () => ''}
  return {plan, input, reads: () => reads}
}

describe('navigation edits of a pull creating many pages in one folder', () => {
  it('reads the siblings once, not once per created page', () => {
    const small = folder(200)
    planNavigation(small.plan, small.input)
    const large = folder(600)
    planNavigation(large.plan, large.input)
    // Main: 40,600 and 361,800 reads (each created page scanned the ones before it, and found itself by indexOf).
    expect(large.reads()).toBeLessThanOrEqual(3 * small.reads() + 10)
  })

  it('puts every created page after the page whose entry stays', () => {
    const {plan, input} = folder(3)
    const {files} = planNavigation(plan, input)
    expect(files).toHaveLength(1)
    expect(files[0]!.file).toBe('SUMMARY.md')
    expect(
      files[0]!.edits.map((edit) => (edit.kind === 'insert' ? [edit.anchor, edit.entry.target] : edit.kind))
    ).toEqual([
      [{after: 1}, 'new-0.md'],
      [{after: 1}, 'new-1.md'],
      [{after: 1}, 'new-2.md']
    ])
  })
})

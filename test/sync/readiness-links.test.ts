/**
 * A document waiting for the documents it links to is looked at again each
 * time one of them is created: each look resumes at the first link still
 * unsettled, so a document of n links costs about n lookups in all, not
 * n * n / 2 (an article of 300 links woken 300 times).
 */
import {describe, expect, it} from 'vitest'
import type {LocalNode} from '../../src/local/index.js'
import type {RunState} from '../../src/sync/push/item-step.js'
import {readiness} from '../../src/sync/push/scheduler.js'
import type {Task} from '../../src/sync/push/tasks.js'
import type {PlanOp} from '../../src/sync/shared/types.js'

/** A map that counts its lookups. */
class CountingMap extends Map<string, string> {
  lookups = 0
  override has(key: string): boolean {
    this.lookups++
    return super.has(key)
  }
}

/** Looks at a document of `count` links each time its next target is created; the lookups it took. */
function lookupsFor(count: number): number {
  const ids = new CountingMap()
  const failedPaths = new CountingMap()
  const links = Array.from({length: count}, (_, n) => ({target: `page-${n}.md`, kind: 'article' as const}))
  const node: Partial<LocalNode> = {path: 'hub.md', kind: 'article', refs: {links, assets: []}}
  const op: Partial<PlanOp> = {op: 'create', path: 'hub.md'}
  const task: Task = {
    node: node as LocalNode,
    op: op as PlanOp,
    status: 'waiting',
    provisional: false,
    selfUpload: false
  }
  const run: Partial<RunState> = {ids, failedPaths}
  for (let created = 0; created < count; created++) {
    expect(readiness(run as RunState, task)).toEqual({wait: `page-${created}.md`})
    if (created % 7 === 3) failedPaths.set(`page-${created}.md`, 'failed')
    else ids.set(`page-${created}.md`, `id-${created}`)
  }
  expect(readiness(run as RunState, task)).toBe('ready')
  return ids.lookups + failedPaths.lookups
}

describe('a document waiting for the documents it links to', () => {
  it('costs lookups linear in its links, woken by each in turn', () => {
    const small = lookupsFor(100)
    const large = lookupsFor(1_000)
    // Ten times the links: about ten times the lookups (quadratic would be a hundred times).
    expect(large).toBeLessThan(small * 15)
    expect(large).toBeLessThan(5 * 1_000)
  })
})

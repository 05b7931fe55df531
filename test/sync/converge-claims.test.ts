/**
 * A create that meets a namesake asks which ids the run itself tracks
 * (`claimed` in `converge.ts`): the namesake another run made at the same
 * moment is adopted, one of the run's own is not. When another run pushes
 * the same tree at once, every create meets a namesake: the run's ids were
 * walked per create before (both `run.ids` and the state: 2 x 900 x 900
 * steps for 900 creates in a run tracking 900 ids), a push quadratic in its
 * size. They are now gathered once per run.
 */
import {describe, expect, it} from 'vitest'
import type {LocalNode, StateStore} from '../../src/local/index.js'
import type {StateEntry} from '../../src/local/state-types.js'
import type {PlanContext} from '../../src/sync/push/plan-context.js'
import {FakeClient} from './fake-client.js'
import {convergedCreate} from '../../src/sync/push/converge.js'
import type {RunState} from '../../src/sync/push/item-step.js'

/** A `Map` that counts the entries its `values()` walks hand out. */
class CountedMap extends Map<string, string> {
  steps = 0;
  override *values(): MapIterator<string> {
    for (const value of super.values()) {
      this.steps++
      yield value
    }
  }
}

/**
 * A run tracking `tracked` ids (in `run.ids` and in the state), then `creates`
 * articles whose namesake another run has just made: the steps of every walk
 * over the run's ids, and what each create kept.
 */
async function adoptAll(tracked: number, creates: number): Promise<{steps: number; kept: number[]}> {
  const ids = new CountedMap()
  const entries: Record<string, StateEntry> = {}
  for (let i = 0; i < tracked; i++) {
    ids.set(`old/page-${i}.md`, `mine-${i}`)
    entries[`old/page-${i}.md`] = {id: `mine-${i}`, type: 'article', title: `Page ${i}`, parentId: 'T'}
  }
  let stateSteps = 0
  const items = new Proxy(entries, {
    get(target, key, receiver) {
      stateSteps++
      return Reflect.get(target, key, receiver)
    }
  })
  // This run's own "Page 0" under the topic, then the other run's creates, one per title.
  const client = new FakeClient()
  const topic = await client.createItem({type: 'topic', title: 'T', parent_topic_id: null})
  const own = await client.createItem({type: 'article', title: 'Page 0', parent_topic_id: topic.id, body: ''})
  ids.set('old/page-0.md', own.id)
  const others: string[] = []
  for (let i = 0; i < creates; i++)
    others.push(
      (await client.createItem({type: 'article', title: `Page ${i}`, parent_topic_id: topic.id, body: ''})).id
    )
  client.createItem = async () => {
    throw new Error('every create here has a namesake to adopt')
  }
  const run: Partial<RunState> = {
    ids,
    writes: 0,
    context: {remote: {items: {}}} as PlanContext,
    store: {state: {items}} as StateStore,
    options: {dir: '', client}
  }
  const kept: string[] = []
  for (let i = 0; i < creates; i++) {
    const node = {kind: 'article', title: `Page ${i}`, path: `new/page-${i}.md`} as LocalNode
    kept.push((await convergedCreate(run as RunState, node, topic.id, undefined)).id)
  }
  return {steps: ids.steps + stateSteps, kept: kept.map((id) => others.indexOf(id))}
}

describe('a create meeting namesakes', () => {
  it('adopts the other run’s, never one of its own', async () => {
    const {kept} = await adoptAll(20, 20)
    expect(kept).toEqual(Array.from({length: 20}, (_, i) => i))
  })

  it('walks the run’s ids once per run, not once per create', async () => {
    const small = await adoptAll(300, 300)
    const large = await adoptAll(900, 900)
    // Linear: three times the tree costs three times the walk (it was nine times: 1.62 million steps at 900).
    expect(large.steps).toBeLessThanOrEqual(3 * 900 + 10)
    expect(large.steps / small.steps).toBeLessThan(3.6)
  })
})

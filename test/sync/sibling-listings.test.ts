/**
 * The listings a push's creates share (`sibling-listings.ts`): an "after"
 * look is always served by a listing whose request started after it asked
 * (the rule `converge.ts` needs against a concurrent run), the creates that
 * ask while one is in flight share the next one, and a topic the run made
 * is known empty without a request.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import type {StructureNode} from '../../src/api/types.js'
import {namesakeKey, SiblingListings} from '../../src/sync/push/sibling-listings.js'

/** A fake listing endpoint: each request records when it started and settles when the test says. */
function endpoint() {
  const requests: Array<{parent: string | null; started: number; settle: (nodes: StructureNode[]) => void}> = []
  let clock = 0
  const list = (parent: string | null) =>
    new Promise<StructureNode[]>((settle) => requests.push({parent, started: clock++, settle}))
  return {requests, list, tick: () => clock++}
}

const node = (id: string, title: string): StructureNode => ({id, type: 'article', title, parent_topic_id: 'T'})
const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('sibling listings', () => {
  it('serve each fresh look with a listing started after it asked, one per batch', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(3), {minLength: 1, maxLength: 30}), async (plan) => {
        const {requests, list, tick} = endpoint()
        const listings = new SiblingListings(list)
        const looks: Array<{asked: number; served?: number}> = []
        for (const settleFirst of plan) {
          const look: {asked: number; served?: number} = {asked: tick()}
          looks.push(look)
          void listings
            .fresh('T')
            .then((listing) => (look.served = Number(listing.get(namesakeKey(node('', 'x')))![0]!.created_at)))
          // Some looks arrive while a listing is in flight, some after it settled.
          for (let i = 0; i < settleFirst; i++) {
            await flush()
            const open = requests.find((r) => r.started >= 0 && !('done' in r))
            if (open) {
              Object.assign(open, {done: true})
              open.settle([{...node(`n${open.started}`, 'x'), created_at: String(open.started)}])
            }
          }
        }
        for (let guard = 0; guard < 100 && looks.some((look) => look.served === undefined); guard++) {
          await flush()
          for (const r of requests) {
            if ('done' in r) continue
            Object.assign(r, {done: true})
            r.settle([{...node(`n${r.started}`, 'x'), created_at: String(r.started)}])
          }
        }
        // Each look was served by a listing whose request started after it asked.
        for (const look of looks) expect(look.served).toBeGreaterThan(look.asked)
        // Never more listings than looks; never two in flight at once for one topic.
        expect(requests.length).toBeLessThanOrEqual(looks.length)
        expect(listings.waitingForListings).toBe(0)
      })
    )
  })

  it('answer a look with a request that started after it', async () => {
    const {requests, list, tick} = endpoint()
    const listings = new SiblingListings(list)
    const served: number[] = []
    const asked: number[] = []
    const look = () => {
      asked.push(tick())
      void listings.fresh('T').then((listing) => served.push(Number(listing.get(namesakeKey(node('', 'x')))![0]!.id)))
    }
    look()
    await flush()
    expect(requests).toHaveLength(1)
    look()
    look()
    look()
    await flush()
    // Three asked while the first was in flight: they share the second, queued behind it.
    expect(requests).toHaveLength(1)
    requests[0]!.settle([node(String(requests[0]!.started), 'x')])
    await flush()
    expect(requests).toHaveLength(2)
    expect(listings.waitingForListings).toBe(3)
    requests[1]!.settle([node(String(requests[1]!.started), 'x')])
    await flush()
    expect(served).toHaveLength(4)
    served.forEach((start, i) => expect(start).toBeGreaterThan(asked[i]!))
    expect(listings.waitingForListings).toBe(0)
  })

  it('know a topic the run made as empty, and read another once for every before-look', async () => {
    const {requests, list} = endpoint()
    const listings = new SiblingListings(list)
    listings.createdTopic('NEW')
    expect((await listings.known('NEW')).size).toBe(0)
    const first = listings.known('OLD')
    const second = listings.known('OLD')
    await flush()
    expect(requests).toHaveLength(1)
    requests[0]!.settle([node('a', 'Intro '), node('b', 'Intro')])
    expect((await first).get(namesakeKey({type: 'article', title: 'Intro'}))!.map((n) => n.id)).toEqual(['a', 'b'])
    await second
    await listings.known('OLD')
    expect(requests).toHaveLength(1)
  })
})

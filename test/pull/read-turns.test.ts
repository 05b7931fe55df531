/**
 * A pull's reads and its conversions share one thread (no worker on two
 * cores): a record's conversion must not hold its request slot, nor the
 * answers that arrived meanwhile, or the network idles while the thread
 * converts (`turns.ts`, issue 32: `--only=pull` against its network ideal).
 */
import {describe, expect, it} from 'vitest'
import type {KbItem} from '../../src/api/index.js'
import {emptyState} from '../../src/local/index.js'
import {noPrefetch} from '../../src/sync/pull/prefetch.js'
import {createReader} from '../../src/sync/pull/reads.js'
import type {Speculation} from '../../src/sync/pull/speculation.js'
import type {PullClient} from '../../src/sync/pull/types.js'
import type {RemoteSnapshot} from '../../src/sync/shared/remote.js'
import {createTurns} from '../../src/sync/pull/turns.js'
import {recordedUrls} from '../../src/sync/pull/file-keys.js'
import {stateAssets} from '../../src/sync/pull/state-assets.js'

/** A client whose records arrive at once, noting each read it is asked for in `events`. */
function instantClient(events: string[]): PullClient {
  return {
    getTree: async () => [],
    getItem: async (id) => {
      events.push(`read ${id}`)
      const item: KbItem = {
        id,
        title: `Article ${id}`,
        type: 'article',
        body: 'Text.',
        parent_topic_id: null,
        created_at: '',
        updated_at: '',
        version: 1
      }
      return item
    },
    getPermissions: async () => ({inherit: true, readers: [], editors: []}),
    downloadFile: async () => undefined
  }
}

/** A speculation that converts nothing, noting each conversion in `events`. */
function notingSpeculation(events: string[]): Speculation {
  return {
    convert: async (id) => {
      events.push(`convert ${id}`)
      return {fileUrls: [], codeDiagrams: []}
    },
    take: () => undefined,
    release: () => undefined,
    held: {now: 0, most: 0, bytes: 0}
  }
}

describe("a pull's reads", () => {
  it('send the next request before converting the record that arrived', async () => {
    const events: string[] = []
    const client = instantClient(events)
    const remote: RemoteSnapshot = {rootTopicId: null, items: {}, top: [], details: {}, permissions: {}}
    const state = emptyState(null)
    const reader = createReader({
      client,
      remote,
      state,
      limit: 1,
      prefetch: noPrefetch(client),
      speculation: notingSpeculation(events),
      diagnostics: [],
      fileUrls: recordedUrls(stateAssets(state))
    })
    await reader.read(['a', 'b', 'c'], [])
    // Converted in the main thread, record a held the only slot: b was read after a's conversion.
    expect(events.indexOf('read b')).toBeLessThan(events.indexOf('convert a'))
    expect(events.filter((event) => event.startsWith('convert'))).toEqual(['convert a', 'convert b', 'convert c'])
    expect([...reader.facts.keys()]).toEqual(['a', 'b', 'c'])
  })

  it('start work one piece per turn, in order, failures their own', async () => {
    const turns = createTurns()
    const order: string[] = []
    const noted = (name: string) => async () => {
      order.push(name)
      return name
    }
    const failing = turns
      .take(() => {
        throw new Error('no')
      })
      .catch((error: Error) => error.message)
    const [one, two] = await Promise.all([turns.take(noted('one')), turns.take(noted('two'))])
    expect(await failing).toBe('no')
    expect([one, two, order]).toEqual(['one', 'two', ['one', 'two']])
  })
})

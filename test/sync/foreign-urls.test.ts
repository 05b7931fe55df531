import {describe, expect, it} from 'vitest'
import {emptyState, remoteTarget} from '../../src/local/index.js'
import {foreignUrls, guardedClient, urlGuard} from '../../src/sync/shared/foreign-urls.js'
import type {SyncClient} from '../../src/sync/shared/types.js'

const here = remoteTarget('https://kb.example.com/v4', 'https://files.example.com')
const guid = '0b5e8d0c-6f0e-4a57-9a56-2f3b7d3c1a10'

function stateWithOther() {
  const state = emptyState(null, here)
  state.others = {
    'https://staging.example.com/v4#root=': {
      target: {key: 'https://staging.example.com/v4#root=', label: 'staging', origins: ['https://staging.example.com']},
      rootTopicId: null,
      items: {},
      assets: {x: {guid: 'G', url: `https://staging-files.example.com/services/kb?Id=${guid}`}}
    }
  }
  return state
}

describe('the guard on bodies', () => {
  it('refuses download URLs not of the target and any URL at another target origin; keeps its own and the web', () => {
    const state = stateWithOther()
    state.assets.mine = {guid: 'M', url: `https://cdn.example.com/services/kb?Id=${guid}`}
    const guard = urlGuard(state)
    const body = [
      `![own](https://files.example.com/services/kb?Id=${guid})`,
      `![recorded](https://cdn.example.com/services/kb?Id=${guid})`,
      '[web](https://example.org/page)',
      `![embedded](http://127.0.0.1:44537/services/kb?Id=${guid})`,
      `![other path](https://elsewhere.example.com/files/services/kb/?id=${guid})`,
      '[staging API](https://staging.example.com/v4/kb/article/1)',
      `<img src="https://staging-files.example.com/services/kb?Id=${guid}">`
    ].join('\n')
    expect(foreignUrls(body, guard).map((f) => new URL(f.url).host)).toEqual([
      '127.0.0.1:44537',
      'elsewhere.example.com',
      'staging.example.com',
      'staging-files.example.com'
    ])
  })

  it('the final check: a create or update whose body carries one is refused, nothing sent', async () => {
    const sent: string[] = []
    const client = {
      createItem: async (input: {title: string}) => (sent.push(input.title), {id: '1'}),
      updateItem: async (id: string) => (sent.push(id), {id})
    } as unknown as SyncClient
    const guarded = guardedClient(client, urlGuard(stateWithOther()), 'kb.example.com')
    const body = `![x](http://localhost:4000/services/kb?Id=${guid})`
    expect(() => guarded.createItem({type: 'article', title: 'T', parent_topic_id: null, body})).toThrow(
      /refused to write "T": its body holds http:\/\/localhost:4000/
    )
    expect(() => guarded.updateItem('7', {body})).toThrow(/refused to write item 7/)
    await guarded.updateItem('7', {body: 'plain text'})
    expect(sent).toEqual(['7'])
  })
})

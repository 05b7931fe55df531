/**
 * Fields of the wrong type are a 400 with a clear code, on every field of
 * every route, never a 500.
 */
import {describe, expect, it} from 'vitest'
import {serversPerTest} from './helpers.js'

const start = serversPerTest({seed: 13})

/** Values of every JSON type but the right one, and objects that trip code converting them to text. */
const wrong: unknown[] = [
  {},
  [],
  ['x'],
  7,
  1.5,
  true,
  false,
  {toString: 1},
  {valueOf: 1, toString: 2},
  {__proto__: {x: 1}},
  'x'.repeat(3),
  null,
  ''
]

describe('local server: malformed fields', () => {
  it('answers parent_topic_id {} with 400 knowledge_base_invalid_request naming the field, on create and move', async () => {
    const {call} = await start()
    const created = await call('POST', '/knowledgebase', {title: 'A', body: 'x', parent_topic_id: {}})
    expect([created.status, created.json.error_code]).toEqual([400, 'knowledge_base_invalid_request'])
    expect(created.json.error).toBe('parent_topic_id must be a topic id (a string) or null, not an object.')
    const article = (await call('POST', '/knowledgebase', {title: 'B', body: 'x'})).json
    const moved = await call('PUT', `/knowledgebase/${article.id}`, {
      parent_topic_id: {toString: 1},
      parent_topic_id_changed: true
    })
    expect([moved.status, moved.json.error_code]).toEqual([400, 'knowledge_base_invalid_request'])
    const flag = await call('PUT', `/knowledgebase/${article.id}`, {
      parent_topic_id: null,
      parent_topic_id_changed: 'yes'
    })
    expect([flag.status, flag.json.error]).toEqual([
      400,
      'parent_topic_id_changed must be true or false, not the string "yes".'
    ])
  })

  it('never answers 500 to a wrong type in any field of any route', async () => {
    const {server, call} = await start()
    const topic = (await call('POST', '/knowledgebase', {type: 'topic', title: 'T'})).json
    const article = (await call('POST', '/knowledgebase', {title: 'A', body: 'x', parent_topic_id: topic.id})).json
    const routes: Array<{method: string; path: string; base: Record<string, unknown>; fields: string[]}> = [
      {
        method: 'POST',
        path: '/knowledgebase',
        base: {type: 'article', title: 'N', body: 'x'},
        fields: ['type', 'title', 'body', 'parent_topic_id']
      },
      {
        method: 'POST',
        path: '/knowledgebase',
        base: {type: 'topic', title: 'N'},
        fields: ['title', 'body', 'parent_topic_id']
      },
      ...[article.id, topic.id].map((id) => ({
        method: 'PUT',
        path: `/knowledgebase/${id}`,
        base: {parent_topic_id_changed: true, parent_topic_id: null},
        fields: ['title', 'body', 'parent_topic_id', 'parent_topic_id_changed']
      })),
      {
        method: 'PUT',
        path: `/knowledgebase/${topic.id}/permissions`,
        base: {inherit: false, readers: [1001], editors: []},
        fields: ['inherit', 'readers', 'editors']
      },
      {
        method: 'PUT',
        path: `/knowledgebase/${article.id}/permissions`,
        base: {readers: [1001]},
        fields: ['readers', 'editors']
      }
    ]
    const answers: string[] = []
    for (const route of routes) {
      for (const field of route.fields) {
        for (const value of wrong) {
          const {status, json} = await call(route.method, route.path, {...route.base, [field]: value})
          if (status !== 200) answers.push(`${status} ${json.error_code}`)
          expect(status, `${route.method} ${route.path} ${field}=${JSON.stringify(value)}: ${json.error}`).toBeLessThan(
            500
          )
        }
      }
    }
    for (const body of ['[1]', '"x"', '7', 'null', '{"title": ', '\u0000']) {
      const raw = await fetch(`${server.apiUrl}/knowledgebase`, {
        method: 'POST',
        headers: {authorization: `Bearer ${server.token}`, 'content-type': 'application/json'},
        body
      })
      expect(raw.status).toBe(400)
    }
    for (const query of [
      'depth=abc',
      'depth=1e400',
      'depth=-1',
      'depth=0.5',
      `parent_topic_id=${article.id}`,
      'parent_topic_id=%00',
      'parent_topic_id[]=x'
    ]) {
      expect((await call('GET', `/knowledgebase/structure?${query}`)).status).toBeLessThan(500)
    }
    expect(answers.length).toBeGreaterThan(0)
    expect(answers.filter((answer) => !/^400 knowledge_base_/.test(answer))).toEqual([])
  })
})

/**
 * The local server answers requests as the platform's official clients send
 * them, end to end through HTTP: the Python client's `null` fields, the
 * TypeScript client's upload part named after the file and its download
 * path, both login paths; and it behaves like the platform where ours was
 * looser: routing before authentication, no empty topic body, mixed-case ids.
 */
import {describe, expect, it} from 'vitest'
import {serversPerTest} from './helpers.js'

const start = serversPerTest({seed: 11})

/** The body the official Python client sends to rename an item: every field it was not given is `null`. */
const pythonRename = {title: 'X', body: null, parent_topic_id: null, parent_topic_id_changed: null}

/** A multipart body with one part, written by hand (FormData always adds a filename). */
function multipart(disposition: string, type: string, bytes: string): {body: string; contentType: string} {
  const boundary = '----kbsyncpart'
  return {
    body: `--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\nContent-Type: ${type}\r\n\r\n${bytes}\r\n--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`
  }
}

describe('local server: requests as the official clients send them', () => {
  it('reads null as an absent field (the Python client), but parent_topic_id null as the root', async () => {
    const {call} = await start()
    const topic = (await call('POST', '/knowledgebase', {type: 'topic', title: 'Guides', body: 'About guides.'})).json
    const article = (
      await call('POST', '/knowledgebase', {title: 'Install', parent_topic_id: topic.id, body: 'Run it.'})
    ).json

    const renamed = await call('PUT', `/knowledgebase/${article.id}`, pythonRename)
    expect(renamed.status, JSON.stringify(renamed.json)).toBe(200)
    expect(renamed.json).toMatchObject({title: 'X', parent_topic_id: topic.id, version: 2})
    expect(renamed.json.body).toBe('Run it.')
    const renamedTopic = await call('PUT', `/knowledgebase/${topic.id}`, pythonRename)
    expect(renamedTopic.status).toBe(200)
    expect(renamedTopic.json).toMatchObject({title: 'X', body: 'About guides.', parent_topic_id: null})

    const edited = await call('PUT', `/knowledgebase/${article.id}`, {
      title: null,
      body: 'Run it now.',
      parent_topic_id: null,
      parent_topic_id_changed: null
    })
    expect([edited.status, edited.json.title, edited.json.parent_topic_id]).toEqual([200, 'X', topic.id])
    const moved = await call('PUT', `/knowledgebase/${article.id}`, {
      title: null,
      body: null,
      parent_topic_id: null,
      parent_topic_id_changed: true
    })
    expect(moved.json.parent_topic_id).toBeNull()

    const created = await call('POST', '/knowledgebase', {
      type: 'topic',
      title: 'New',
      body: null,
      parent_topic_id: null
    })
    expect([created.status, created.json.type, created.json.parent_topic_id]).toEqual([200, 'topic', null])
    const typeless = await call('POST', '/knowledgebase', {
      type: null,
      title: 'Plain',
      body: 'x',
      parent_topic_id: null
    })
    expect([typeless.status, typeless.json.type]).toEqual([200, 'article'])
    // An article still needs its body: null is no body.
    expect(
      (await call('POST', '/knowledgebase', {title: 'Empty', body: null, parent_topic_id: null})).json.error_code
    ).toBe('knowledge_base_body_required')

    const permissions = await call('PUT', `/knowledgebase/${topic.id}/permissions`, {
      inherit: null,
      readers: [1001],
      editors: null
    })
    expect(permissions.status, JSON.stringify(permissions.json)).toBe(200)
    expect(permissions.json).toMatchObject({inherit: true, readers: [{id: 1001}], editors: []})
  })

  it('takes a login with person_id null, at /v4/auth and at the accounts path /api/v4/auth', async () => {
    const {server} = await start()
    for (const url of [`${server.apiUrl}/auth`, `${server.filesUrl}/api/v4/auth`]) {
      const answer = await fetch(url, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({login: 'local', security_key: 'local-key', person_id: null})
      })
      expect(answer.status, url).toBe(200)
      const {access_token} = (await answer.json()) as {access_token: string}
      expect(
        (await fetch(`${server.apiUrl}/knowledgebase/structure`, {headers: {authorization: `Bearer ${access_token}`}}))
          .status
      ).toBe(200)
    }
  })

  it('takes the upload from any part that carries a file (the TypeScript client names it after the file) and serves /files/download/{guid}', async () => {
    const {server, call} = await start()
    const auth = {authorization: `Bearer ${server.token}`}
    const form = new FormData()
    form.append('report.pdf', new Blob(['%PDF report']), 'report.pdf')
    const uploaded = await fetch(`${server.filesUrl}/v4/files/upload`, {method: 'POST', headers: auth, body: form})
    expect(uploaded.status).toBe(200)
    const {guid} = (await uploaded.json()) as {guid: string}

    // No filename, only the type of a file: the part's name is the file's.
    const raw = multipart('name="notes.txt"', 'application/octet-stream', 'some notes')
    const second = await fetch(`${server.apiUrl}/files/upload`, {
      method: 'POST',
      headers: {...auth, 'content-type': raw.contentType},
      body: raw.body
    })
    expect(second.status).toBe(200)
    const notes = ((await second.json()) as {guid: string}).guid
    const item = (
      await call('POST', '/knowledgebase', {title: 'Files', body: `<a href="${guid}">r</a> <a href="${notes}">n</a>`})
    ).json
    expect(item.attachments.map((a: {name: string}) => a.name)).toEqual(['report.pdf', 'notes.txt'])

    for (const url of [
      `${server.filesUrl}/files/download/${guid}`,
      `${server.filesUrl}/v4/files/download/${guid.toUpperCase()}`
    ]) {
      const download = await fetch(url, {headers: auth})
      expect(download.status, url).toBe(200)
      expect(await download.text()).toBe('%PDF report')
    }
    expect((await fetch(`${server.filesUrl}/files/download/${guid}`)).status).toBe(401)
    const missing = await fetch(`${server.filesUrl}/files/download/00000000-0000-0000-0000-000000000000`, {
      headers: auth
    })
    expect(missing.status).toBe(404)

    // A part that is only a text field still carries no file.
    const field = multipart('name="file"', 'text/plain', 'not a file')
    const refused = await fetch(`${server.apiUrl}/files/upload`, {
      method: 'POST',
      headers: {...auth, 'content-type': field.contentType},
      body: field.body
    })
    expect([refused.status, ((await refused.json()) as {error_code: string}).error_code]).toEqual([
      400,
      'no_file_in_request'
    ])
  })

  it('routes before it authenticates: an unknown path is 404 whatever the token, a known one still 401 without it', async () => {
    const {server} = await start()
    const tokens: Array<Record<string, string>> = [
      {},
      {authorization: 'Bearer wrong'},
      {authorization: `Bearer ${server.token}`}
    ]
    for (const headers of tokens) {
      for (const path of ['/v4/nothing', '/v4/knowledgebase/A/B/C', '/api/v4/knowledgebase/structure']) {
        const answer = await fetch(`${server.filesUrl}${path}`, {headers})
        expect([answer.status, ((await answer.json()) as {error_code: string}).error_code], path).toEqual([
          404,
          'not_found'
        ])
      }
    }
    const known = await fetch(`${server.apiUrl}/knowledgebase/structure`)
    expect([known.status, ((await known.json()) as {error_code: string}).error_code]).toEqual([
      401,
      'token_not_specified'
    ])
  })

  it('refuses an empty topic body like an empty article body, and keeps the body it has', async () => {
    const {call} = await start()
    const emptyCreate = await call('POST', '/knowledgebase', {type: 'topic', title: 'T', body: ''})
    expect([emptyCreate.status, emptyCreate.json.error_code]).toEqual([400, 'knowledge_base_body_required'])
    const topic = (await call('POST', '/knowledgebase', {type: 'topic', title: 'T', body: 'About T.'})).json
    for (const body of ['', ' \n\t']) {
      const emptied = await call('PUT', `/knowledgebase/${topic.id}`, {body})
      expect([emptied.status, emptied.json.error_code]).toEqual([400, 'knowledge_base_body_required'])
    }
    const kept = (await call('GET', `/knowledgebase/${topic.id}`)).json
    expect([kept.body, kept.version]).toEqual(['About T.', 1])
    // A topic without a body is still fine, and a rename leaves its body alone.
    expect((await call('POST', '/knowledgebase', {type: 'topic', title: 'Bare'})).status).toBe(200)
    expect((await call('PUT', `/knowledgebase/${topic.id}`, {title: 'T2'})).json).toMatchObject({
      title: 'T2',
      body: 'About T.'
    })
  })

  it('gives ids that mix upper and lower case, like the platform', async () => {
    const {call} = await start()
    const ids: string[] = []
    for (let i = 0; i < 20; i++) ids.push((await call('POST', '/knowledgebase', {title: `A${i}`, body: 'x'})).json.id)
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{11}$/)
    expect(ids.filter((id) => /[a-z]/.test(id) && /[A-Z]/.test(id)).length).toBeGreaterThan(10)
    const id = ids.find((candidate) => /[a-z]/.test(candidate))!
    expect((await call('GET', `/knowledgebase/${id}`)).status).toBe(200)
    // Case matters: the upper-cased id is another, unknown one.
    expect((await call('GET', `/knowledgebase/${id.toUpperCase()}`)).status).toBe(404)
  })
})

import {builtCli} from '../built.js'
import {spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {startServer, type RunningServer} from '../../src/server/index.js'
import {spawnServe} from './helpers.js'

const servers: RunningServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

async function start(options: Parameters<typeof startServer>[0] = {}) {
  const server = await startServer({seed: 7, ...options})
  servers.push(server)
  const call = async (method: string, path: string, body?: unknown, token: string | null = server.token) => {
    const headers: Record<string, string> = {}
    if (token !== null) headers.authorization = `Bearer ${token}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(server.apiUrl + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    return {status: response.status, headers: response.headers, json: (await response.json()) as any}
  }
  return {server, call}
}

describe('local server: items', () => {
  it('creates, reads with the title heading, updates without moving, moves only when asked', async () => {
    const {call} = await start()
    const topic = (await call('POST', '/knowledgebase', {type: 'topic', title: 'Guides'})).json
    const article = (
      await call('POST', '/knowledgebase', {title: 'Install', parent_topic_id: topic.id, body: 'Run it.'})
    ).json
    expect(article).toMatchObject({type: 'article', version: 1, parent_topic_id: topic.id})
    expect((await call('GET', `/knowledgebase/${article.id}`)).json.body).toBe('# Install\n\nRun it.')

    const updated = (await call('PUT', `/knowledgebase/${article.id}`, {body: 'Run it now.', parent_topic_id: null}))
      .json
    expect(updated.parent_topic_id).toBe(topic.id)
    expect(updated.version).toBe(2)
    expect(updated.updated_at > article.updated_at).toBe(true)

    const moved = (
      await call('PUT', `/knowledgebase/${article.id}`, {parent_topic_id: null, parent_topic_id_changed: true})
    ).json
    expect(moved.parent_topic_id).toBeNull()
  })

  it('answers the spec error codes', async () => {
    const {call} = await start()
    expect((await call('POST', '/knowledgebase', {body: 'x'})).json.error_code).toBe('knowledge_base_title_required')
    expect((await call('POST', '/knowledgebase', {title: 'A', body: '  '})).json.error_code).toBe(
      'knowledge_base_body_required'
    )
    const article = (await call('POST', '/knowledgebase', {title: 'A', body: 'x'})).json
    const invalidParent = await call('POST', '/knowledgebase', {title: 'B', body: 'x', parent_topic_id: article.id})
    expect([invalidParent.status, invalidParent.json.error_code]).toEqual([400, 'knowledge_base_invalid_parent'])
    const missing = await call('GET', '/knowledgebase/NOPE')
    expect([missing.status, missing.json.error_code]).toEqual([404, 'knowledge_base_not_found'])
    expect((await call('GET', '/knowledgebase/NOPE', undefined, null)).json.error_code).toBe('token_not_specified')
    expect((await call('GET', '/knowledgebase/NOPE', undefined, 'wrong')).json.error_code).toBe('invalid_token')
    const topic = (await call('POST', '/knowledgebase', {type: 'topic', title: 'T'})).json
    await call('POST', '/knowledgebase', {title: 'C', body: 'x', parent_topic_id: topic.id})
    const refused = await call('DELETE', `/knowledgebase/${topic.id}`)
    expect([refused.status, refused.json.error_code]).toEqual([400, 'knowledge_base_invalid_request'])
    expect((await call('DELETE', `/knowledgebase/${topic.id}?delete_with_children=true`)).json).toEqual({deleted: true})
    const intoItself = await call('PUT', `/knowledgebase/${topic.id}`, {
      parent_topic_id: topic.id,
      parent_topic_id_changed: true
    })
    expect(intoItself.status).toBe(404)
  })

  it('cuts the structure at the depth limit: topics there carry no children', async () => {
    const {call} = await start({maxDepth: 2})
    const a = (await call('POST', '/knowledgebase', {type: 'topic', title: 'A'})).json
    const b = (await call('POST', '/knowledgebase', {type: 'topic', title: 'B', parent_topic_id: a.id})).json
    await call('POST', '/knowledgebase', {title: 'Deep', body: 'x', parent_topic_id: b.id})
    const answer = (await call('GET', '/knowledgebase/structure?depth=9')).json
    expect(answer.depth).toBe(2)
    expect(answer.items[0].children[0].id).toBe(b.id)
    expect('children' in answer.items[0].children[0]).toBe(false)
    const sub = (await call('GET', `/knowledgebase/structure?parent_topic_id=${b.id}`)).json
    expect(sub.items.map((n: {title: string}) => n.title)).toEqual(['Deep'])
  })

  it('validates permissions: known users only, inherit for topics only', async () => {
    const {call} = await start()
    const topic = (await call('POST', '/knowledgebase', {type: 'topic', title: 'T'})).json
    const article = (await call('POST', '/knowledgebase', {title: 'A', body: 'x', parent_topic_id: topic.id})).json
    const set = (
      await call('PUT', `/knowledgebase/${topic.id}/permissions`, {inherit: false, readers: [1001], editors: [1002]})
    ).json
    expect(set.inherit).toBe(false)
    expect(set.readers.map((p: {id: number}) => p.id)).toEqual([1001])
    expect((await call('PUT', `/knowledgebase/${article.id}/permissions`, {inherit: true, readers: []})).status).toBe(
      400
    )
    expect((await call('PUT', `/knowledgebase/${topic.id}/permissions`, {readers: [424242]})).status).toBe(400)
  })
})

describe('local server: files, limits, faults, persistence', () => {
  it('attaches an uploaded guid once, as a file URL listed under attachments', async () => {
    const {server, call} = await start()
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array([1, 2, 3])]), 'a.png')
    const upload = await fetch(`${server.filesUrl}/v4/files/upload`, {
      method: 'POST',
      headers: {authorization: `Bearer ${server.token}`},
      body: form
    })
    const {guid, md5_hash} = (await upload.json()) as {guid: string; md5_hash: string}
    expect(md5_hash).toBe('5289df737df57326fcdd22597afb1fac')
    const article = (await call('POST', '/knowledgebase', {title: 'A', body: `![pic](${guid})`})).json
    expect(article.body).toBe(`![pic](${server.filesUrl}/services/kb?Id=${guid})`)
    expect(article.attachments).toEqual([
      {id: guid, name: 'a.png', size: 3, url: `${server.filesUrl}/services/kb?Id=${guid}`}
    ])
    const other = await call('POST', '/knowledgebase', {title: 'B', body: `![pic](${guid})`})
    expect(other.status).toBe(400)
    const bytes = await fetch(`${server.filesUrl}/services/kb?Id=${guid}`, {
      headers: {authorization: `Bearer ${server.token}`}
    })
    expect([...new Uint8Array(await bytes.arrayBuffer())]).toEqual([1, 2, 3])
  })

  it('announces the rate limit and answers 429 beyond it', async () => {
    const {call} = await start({rateLimit: {limit: 2, windowSeconds: 60}})
    const first = await call('GET', '/knowledgebase/structure')
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1')
    await call('GET', '/knowledgebase/structure')
    const third = await call('GET', '/knowledgebase/structure')
    expect([third.status, third.json.error_code]).toEqual([429, 'too_many_requests'])
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  it('counts the rate limit per user (a new token from /auth shares the budget) and announces it on every answer', async () => {
    const {server, call} = await start({rateLimit: {limit: 2, windowSeconds: 60}})
    await call('GET', '/knowledgebase/structure')
    const login = await fetch(`${server.apiUrl}/auth`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({login: 'local', security_key: 'local-key'})
    })
    expect(login.headers.get('x-ratelimit-limit')).toBe('2')
    const fresh = ((await login.json()) as {access_token: string}).access_token
    expect((await call('GET', '/knowledgebase/structure', undefined, fresh)).headers.get('x-ratelimit-remaining')).toBe(
      '0'
    )
    expect((await call('GET', '/knowledgebase/structure', undefined, fresh)).status).toBe(429)
    const refused = await call('GET', '/knowledgebase/structure', undefined, 'wrong')
    expect(refused.status).toBe(401)
    expect(refused.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/)
  })

  it('uses up a guid only when the write that references it is accepted, and reads a content type in any case', async () => {
    const {server, call} = await start()
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array([4, 5])]), 'b.png')
    const request = new Request(`${server.filesUrl}/v4/files/upload`, {method: 'POST', body: form})
    const type = request.headers.get('content-type')!.replace('multipart/form-data', 'Multipart/Form-Data')
    const upload = await fetch(request.url, {
      method: 'POST',
      headers: {authorization: `Bearer ${server.token}`, 'content-type': type},
      body: await request.arrayBuffer()
    })
    expect(upload.status).toBe(200)
    const {guid} = (await upload.json()) as {guid: string}
    const article = (await call('POST', '/knowledgebase', {title: 'A', body: 'x'})).json
    const refused = await call('PUT', `/knowledgebase/${article.id}`, {
      body: `![z](${guid})`,
      parent_topic_id: 'NOPE0000000',
      parent_topic_id_changed: true
    })
    expect(refused.json.error_code).toBe('knowledge_base_invalid_parent')
    expect((await call('POST', '/knowledgebase', {title: 'B', body: `![z](${guid})`})).status).toBe(200)
  })

  it("stamps an item's quick successive changes apart without running the clock ahead for all", async () => {
    const {call} = await start()
    const started = Date.now()
    const items = []
    for (let i = 0; i < 5; i++) items.push((await call('POST', '/knowledgebase', {title: `Q${i}`, body: 'x'})).json)
    for (const item of items) expect(Date.parse(item.created_at)).toBeLessThanOrEqual(Date.now())
    expect(Date.parse(items[4].created_at)).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000)
    const once = (await call('PUT', `/knowledgebase/${items[0].id}`, {body: 'y'})).json
    const twice = (await call('PUT', `/knowledgebase/${items[0].id}`, {body: 'z'})).json
    expect(once.updated_at > items[0].updated_at).toBe(true)
    expect(twice.updated_at > once.updated_at).toBe(true)
  })

  it('shows a stored file URL at the port of the current start (the embedded server takes a new port each time)', async () => {
    const dataPath = join(mkdtempSync(join(tmpdir(), 'kbsync-server-')), 'kb.json')
    const first = await start({dataPath})
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array([7, 8, 9])]), 'c.png')
    const upload = await fetch(`${first.server.filesUrl}/v4/files/upload`, {
      method: 'POST',
      headers: {authorization: `Bearer ${first.server.token}`},
      body: form
    })
    const {guid} = (await upload.json()) as {guid: string}
    const a = (
      await first.call('POST', '/knowledgebase', {
        title: 'A',
        body: `![pic](${guid}) and [elsewhere](http://127.0.0.1:9/services/kb?Id=${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)})`
      })
    ).json
    const firstUrl = `${first.server.filesUrl}/services/kb?Id=${guid}`
    expect(a.body).toContain(firstUrl)
    // A client sends the body back as it read it, URL included.
    await first.call('PUT', `/knowledgebase/${a.id}`, {body: `${a.body}\n\nMore.`})
    await first.server.close()
    expect(readFileSync(dataPath, 'utf8')).not.toContain(first.server.filesUrl)
    const second = await start({dataPath})
    expect(second.server.filesUrl).not.toBe(first.server.filesUrl)
    const shown = (await second.call('GET', `/knowledgebase/${a.id}`)).json
    expect(shown.body).toContain(`![pic](${second.server.filesUrl}/services/kb?Id=${guid})`)
    // A URL that is not one of the server's files is left as it was.
    expect(shown.body).toContain('http://127.0.0.1:9/services/kb?Id=00000000-')
    expect(shown.attachments).toEqual([
      expect.objectContaining({id: guid, url: `${second.server.filesUrl}/services/kb?Id=${guid}`})
    ])
    const bytes = await fetch(shown.attachments[0].url, {headers: {authorization: `Bearer ${second.server.token}`}})
    expect([...new Uint8Array(await bytes.arrayBuffer())]).toEqual([7, 8, 9])
  })

  it('never reuses an id, even when restarted with the same seed', async () => {
    const dataPath = join(mkdtempSync(join(tmpdir(), 'kbsync-server-')), 'kb.json')
    const first = await start({dataPath, seed: 42})
    const a = (await first.call('POST', '/knowledgebase', {title: 'First', body: 'x'})).json
    await first.server.close()
    const second = await start({dataPath, seed: 42})
    const b = (await second.call('POST', '/knowledgebase', {title: 'Second', body: 'x'})).json
    expect(b.id).not.toBe(a.id)
    expect((await second.call('GET', `/knowledgebase/${a.id}`)).json.title).toBe('First')
  })

  it('refuses to start on a corrupt data file, naming it and leaving it as it is', async () => {
    const dataPath = join(mkdtempSync(join(tmpdir(), 'kbsync-server-')), 'kb.json')
    for (const text of [
      '{"schemaVersion": 1, "items": [',
      'null',
      '{"schemaVersion": 1, "items": [{"id": 5}], "files": []}'
    ]) {
      writeFileSync(dataPath, text)
      await expect(startServer({dataPath})).rejects.toThrow(`${dataPath}: not a data file of the local knowledge base`)
      expect(readFileSync(dataPath, 'utf8')).toBe(text)
    }
  })

  it('never applies a write that failed with 500, and applies one whose answer was dropped', async () => {
    const {server, call} = await start({failRate: 1, failModes: ['500']})
    expect((await call('POST', '/knowledgebase', {title: 'A', body: 'x'})).status).toBe(500)
    expect(server.items()).toHaveLength(0)
    server.setFaults({failModes: ['drop-after']})
    await expect(call('POST', '/knowledgebase', {title: 'B', body: 'x'})).rejects.toThrow()
    expect(server.items().map((i) => i.title)).toEqual(['B'])
  })

  it('persists to a file and loads it on restart; web edits bump the version', async () => {
    const dataPath = join(mkdtempSync(join(tmpdir(), 'kbsync-server-')), 'kb.json')
    const first = await start({dataPath})
    const article = (await first.call('POST', '/knowledgebase', {title: 'Kept', body: 'x'})).json
    const edited = first.server.webEdit(article.id, {body: 'edited on the web'})
    expect(edited.version).toBe(2)
    expect(edited.last_edited_by?.id).not.toBe(article.last_edited_by.id)
    await first.server.close()
    expect(JSON.parse(readFileSync(dataPath, 'utf8')).items).toHaveLength(1)
    const second = await start({dataPath})
    expect((await second.call('GET', `/knowledgebase/${article.id}`)).json.body).toBe('# Kept\n\nedited on the web')
  })

  it('issues tokens through /auth and refuses revoked and expired ones', async () => {
    const {server, call} = await start()
    const bad = await fetch(`${server.apiUrl}/auth`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({login: 'local', security_key: 'no'})
    })
    expect(bad.status).toBe(401)
    const good = (await (
      await fetch(`${server.apiUrl}/auth`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({login: 'local', security_key: 'local-key'})
      })
    ).json()) as any
    expect(good.api_url).toBe(server.apiUrl + '/')
    expect((await call('GET', '/knowledgebase/structure', undefined, good.access_token)).status).toBe(200)
    server.revokeToken(good.access_token)
    expect((await call('GET', '/knowledgebase/structure', undefined, good.access_token)).json.error_code).toBe(
      'revoked_token'
    )
    server.expireToken(server.token)
    expect((await call('GET', '/knowledgebase/structure')).json.error_code).toBe('expired_token')
  })
})

describe('kbsync serve', () => {
  it('prints its URL, answers, never prints a token it was given, and stops on SIGINT', async () => {
    const served = await spawnServe(['--data', ':memory:', '--token', 'sekrit-token-123'])
    const answer = await fetch(`${served.apiUrl}/knowledgebase/structure`, {
      headers: {authorization: 'Bearer sekrit-token-123'}
    })
    expect(answer.status).toBe(200)
    expect(await served.stop()).toBe(0)
    expect(served.out()).not.toContain('sekrit-token-123')
  })

  it('refuses to expose the server beyond loopback with the public built-in token', () => {
    const result = spawnSync(process.execPath, [builtCli, 'serve', '--data', ':memory:', '--host', '0.0.0.0'], {
      encoding: 'utf8',
      timeout: 20_000
    })
    expect(result.status).toBe(2)
    expect(result.stderr).toContain(
      'the server listens on 0.0.0.0, beyond this machine: give it a token of your own (--token or KBSYNC_SERVE_TOKEN;'
    )
  })
})

/**
 * Contract: the real client against the real local server over HTTP, for
 * every endpoint and every error class the spec lists.
 */
import {createHash} from 'node:crypto'
import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ApiError, AuthError, KbClient, type ClientOptions, type StructureNode} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'

type Running = Awaited<ReturnType<typeof startServer>>
let server: Running
let client: KbClient
let dir = ''
const extra: KbClient[] = []

function another(options: Partial<ClientOptions>): KbClient {
  const c = new KbClient({apiUrl: server.apiUrl, retryBaseMs: 5, ...options})
  extra.push(c)
  return c
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kbsync-contract-'))
  server = await startServer({port: 0, maxDepth: 3})
  client = new KbClient({apiUrl: server.apiUrl, filesUrl: server.filesUrl, token: server.token, retryBaseMs: 5})
})

afterAll(async () => {
  await Promise.all([client?.close(), ...extra.map((c) => c.close())])
  await server?.close()
  await rm(dir, {recursive: true, force: true})
})

const expectApiError = async (promise: Promise<unknown>, status: number, errorCode?: string): Promise<ApiError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(ApiError)
  expect((error as ApiError).status).toBe(status)
  if (errorCode) expect((error as ApiError).errorCode).toBe(errorCode)
  return error as ApiError
}

describe('knowledge-base endpoints', () => {
  it('creates, reads, updates, moves and deletes', async () => {
    const topic = await client.createItem({type: 'topic', title: 'Guides'})
    expect(topic).toMatchObject({type: 'topic', title: 'Guides', parent_topic_id: null, version: expect.any(Number)})
    const article = await client.createItem({
      type: 'article',
      title: 'Install',
      parent_topic_id: topic.id,
      body: 'Run it.'
    })
    expect(article.parent_topic_id).toBe(topic.id)
    const read = await client.getItem(article.id)
    expect(read.body).toMatch(/Run it\./)

    const updated = await client.updateItem(article.id, {body: 'Run it twice.'})
    expect(updated.parent_topic_id).toBe(topic.id) // a body-only PUT never moves
    expect(updated.version).toBeGreaterThan(read.version)
    const renamed = await client.updateItem(article.id, {title: 'Installing'})
    expect(renamed).toMatchObject({title: 'Installing', parent_topic_id: topic.id})

    const moved = await client.moveItem(article.id, null)
    expect(moved.parent_topic_id).toBeNull()
    const back = await client.moveItem(article.id, topic.id)
    expect(back.parent_topic_id).toBe(topic.id)

    expect(await client.deleteItem(article.id)).toBe(true)
    await expectApiError(client.getItem(article.id), 404, 'knowledge_base_not_found')
    expect(await client.deleteItem(topic.id)).toBe(true)
  })

  it('needs withChildren to delete a topic that has children', async () => {
    const topic = await client.createItem({type: 'topic', title: 'Doomed'})
    const child = await client.createItem({type: 'article', title: 'Child', parent_topic_id: topic.id, body: 'c'})
    const error = await expectApiError(client.deleteItem(topic.id), 400)
    expect(error).toMatchObject({method: 'DELETE', path: `/knowledgebase/${topic.id}`})
    expect(await client.deleteItem(topic.id, {withChildren: true})).toBe(true)
    await expectApiError(client.getItem(child.id), 404)
  })

  it('reads structure and the whole tree across the depth limit', async () => {
    const root = await client.createItem({type: 'topic', title: 'Deep'})
    let parent = root.id
    for (let i = 1; i <= 6; i++) {
      await client.createItem({type: 'article', title: `Leaf ${i}`, parent_topic_id: parent, body: 'x'})
      parent = (await client.createItem({type: 'topic', title: `Level ${i}`, parent_topic_id: parent})).id
    }
    const one = await client.getStructure({parentTopicId: root.id, depth: 1})
    expect(one.items.map((n) => n.title).sort()).toEqual(['Leaf 1', 'Level 1'])
    const before = client.stats().byEndpoint['GET /knowledgebase/structure'] ?? 0
    const tree = await client.getTree(root.id)
    const titles: string[] = []
    const walk = (nodes: StructureNode[]): void => nodes.forEach((n) => (titles.push(n.title), walk(n.children ?? [])))
    walk(tree)
    expect(titles).toHaveLength(12)
    expect(titles).toContain('Leaf 6')
    // Seven levels under a server that cuts at 3: one request per cut, not one per topic.
    expect((client.stats().byEndpoint['GET /knowledgebase/structure'] ?? 0) - before).toBeLessThanOrEqual(3)
    const full = await client.getTree()
    expect(full.some((n) => n.id === root.id && (n.children ?? []).length === 2)).toBe(true)
    await client.deleteItem(root.id, {withChildren: true})
  })

  it('gets and sets permissions', async () => {
    const topic = await client.createItem({type: 'topic', title: 'Private'})
    const before = await client.getPermissions(topic.id)
    expect(typeof before.inherit).toBe('boolean')
    const ids = [1001, 1002] // the server's default users
    const after = await client.setPermissions(topic.id, {
      inherit: false,
      readers: ids.slice(0, 1),
      editors: ids.slice(1, 2)
    })
    expect(after.inherit).toBe(false)
    expect(after.readers.map((p) => p.id)).toEqual(ids.slice(0, 1))
    expect((await client.getPermissions(topic.id)).editors.map((p) => p.id)).toEqual(ids.slice(1, 2))
    await client.deleteItem(topic.id)
  })

  it('uploads a file, attaches it by guid, and downloads it back', async () => {
    const file = path.join(dir, 'diagram.png')
    const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(50_000, 3)])
    await writeFile(file, bytes)
    const upload = await client.uploadFile(file)
    expect(upload.md5_hash).toBe(createHash('md5').update(bytes).digest('hex'))
    const article = await client.createItem({type: 'article', title: 'With picture', body: `See ![d](${upload.guid})`})
    const read = await client.getItem(article.id)
    expect(read.body).toContain(`services/kb?Id=${upload.guid}`)
    const attachment = read.attachments?.find((a) => a.id === upload.guid)
    expect(attachment).toMatchObject({size: bytes.length})
    const dest = path.join(dir, 'back.png')
    expect(await client.downloadFile(attachment!.url, dest)).toEqual({bytes: bytes.length})
    expect((await readFile(dest)).equals(bytes)).toBe(true)
    await client.deleteItem(article.id)
  })

  it('rejects an empty upload', async () => {
    const file = path.join(dir, 'empty.txt')
    await writeFile(file, '')
    await expectApiError(client.uploadFile(file), 400, 'empty_file')
  })
})

describe('errors', () => {
  it('400 validation codes', async () => {
    await expectApiError(
      client.createItem({type: 'article', title: '', body: 'x'}),
      400,
      'knowledge_base_title_required'
    )
    await expectApiError(client.createItem({type: 'article', title: 'No body'}), 400, 'knowledge_base_body_required')
    const error = await expectApiError(
      client.createItem({type: 'article', title: 'Lost', parent_topic_id: 'NOSUCHTOPIC', body: 'x'}),
      400,
      'knowledge_base_invalid_parent'
    )
    expect(error).toMatchObject({method: 'POST', path: '/knowledgebase', retryable: false})
    expect(error.message).toContain('knowledge_base_invalid_parent')
  })

  it('404 for an unknown item on every item endpoint', async () => {
    await expectApiError(client.getItem('NOPE0000000'), 404, 'knowledge_base_not_found')
    await expectApiError(client.updateItem('NOPE0000000', {body: 'x'}), 404)
    await expectApiError(client.getPermissions('NOPE0000000'), 404)
  })

  it('401 invalid token, and a revoked ready token: AuthError, not retried', async () => {
    const wrong = another({token: 'not-a-valid-token'})
    const error = await expectApiError(wrong.getItem('X'), 401, 'invalid_token')
    expect(error).toBeInstanceOf(AuthError)
    expect(wrong.stats().requests).toBe(1)

    const own = await startServer({port: 0, token: 'ready-token-to-revoke'})
    try {
      const ready = new KbClient({apiUrl: own.apiUrl, token: 'ready-token-to-revoke', retryBaseMs: 5})
      extra.push(ready)
      await ready.getTree()
      own.revokeToken('ready-token-to-revoke')
      const revoked = await expectApiError(ready.getTree(), 401, 'revoked_token')
      expect(revoked).toBeInstanceOf(AuthError)
      expect(revoked.message).toMatch(/KBSYNC_TOKEN/)
      expect(revoked.message).not.toContain('ready-token-to-revoke')
      expect(ready.stats().requests).toBe(2)
    } finally {
      await own.close()
    }
  })

  it('401 expired or revoked token with login and key: logs in again once and repeats', async () => {
    const dataPath = path.join(dir, 'auth.json')
    const own = await startServer({port: 0, dataPath})
    try {
      const events: string[] = []
      const login = new KbClient({
        apiUrl: own.apiUrl,
        login: 'local',
        securityKey: 'local-key',
        retryBaseMs: 5,
        onEvent: (e) => events.push(e.type)
      })
      extra.push(login)
      await login.getTree()
      own.expireToken(await newestToken(dataPath))
      await login.getTree()
      own.revokeToken(await newestToken(dataPath))
      await Promise.all([login.getTree(), login.getTree(), login.getTree()])
      expect(events.filter((t) => t === 'reauth').length).toBeGreaterThanOrEqual(2)
      // One login at the start, one per rejected token: concurrent calls share a login.
      expect(login.stats().byEndpoint['POST /auth']).toBe(3)
      expect(own.counts().auth).toBe(3)
    } finally {
      await own.close()
    }
  })

  it('a wrong security key is an AuthError naming the variables', async () => {
    const bad = another({login: 'local', securityKey: 'wrong-key-123'})
    const error = await expectApiError(bad.getTree(), 401)
    expect(error).toBeInstanceOf(AuthError)
    expect(error.message).toMatch(/KBSYNC_LOGIN and KBSYNC_SECURITY_KEY/)
    expect(error.message).not.toContain('wrong-key-123')
  })

  it('429 beyond the rate limit: waited out, or a clear error when the wait is too long', async () => {
    const limited = await startServer({port: 0, rateLimit: {limit: 3, windowSeconds: 1}})
    try {
      const patient = new KbClient({apiUrl: limited.apiUrl, token: limited.token, retryBaseMs: 5, concurrency: 4})
      extra.push(patient)
      const results = await Promise.all(Array.from({length: 8}, () => patient.getStructure()))
      expect(results).toHaveLength(8)
      expect(patient.stats().rateLimitWaits).toBeGreaterThan(0)
      const hasty = new KbClient({
        apiUrl: limited.apiUrl,
        token: limited.token,
        retryBaseMs: 5,
        concurrency: 8,
        maxRateLimitWaitMs: 0
      })
      extra.push(hasty)
      const outcomes = await Promise.allSettled(Array.from({length: 8}, () => hasty.getStructure()))
      const rejected = outcomes
        .filter((o) => o.status === 'rejected')
        .map((o) => (o as PromiseRejectedResult).reason as ApiError)
      expect(rejected.length).toBeGreaterThan(0)
      expect(rejected[0]).toMatchObject({status: 429, errorCode: 'too_many_requests'})
      expect(rejected[0]!.message).toMatch(/maxRateLimitWaitMs/)
    } finally {
      await limited.close()
    }
  })

  it('500: retried, then reported with status and code', async () => {
    const failing = await startServer({port: 0, failRate: 1, failModes: ['500']})
    try {
      const c = new KbClient({apiUrl: failing.apiUrl, token: failing.token, retryBaseMs: 1, retries: 3})
      extra.push(c)
      const error = await expectApiError(c.getItem('ANY'), 500, 'server_error')
      expect(error.retryable).toBe(true)
      expect(c.stats()).toMatchObject({requests: 3, retries: 2})
    } finally {
      await failing.close()
    }
  })
})

/** The newest token the server issued at `/auth` (the data file keeps them so they survive restarts). */
async function newestToken(dataPath: string): Promise<string> {
  const data = JSON.parse(await readFile(dataPath, 'utf8')) as {tokens: string[]}
  return data.tokens[data.tokens.length - 1]!
}

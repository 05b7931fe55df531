/**
 * Reading permissions during pull: closed to the account (403) is a warning
 * and the content comes anyway; any other failure fails the pull before it
 * writes anything, so the next run reads them again instead of losing them.
 */
import {readdir, readFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {temporaryFolders} from '../temp-folders.js'
import {ApiError, KbClient} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'
import {pull} from '../../src/sync/pull/index.js'

let server: Awaited<ReturnType<typeof startServer>>
let client: KbClient
let root: string
const temporary = temporaryFolders('perms')

beforeAll(async () => {
  server = await startServer({port: 0})
  client = new KbClient({apiUrl: server.apiUrl, filesUrl: server.filesUrl, token: server.token})
  root = (await client.createItem({type: 'topic', title: 'Perms', parent_topic_id: null})).id
  const article = await client.createItem({type: 'article', title: 'Secret', parent_topic_id: root, body: 'Text.'})
  await client.setPermissions(article.id, {readers: [1001], editors: [1001]})
})

afterAll(async () => {
  await client?.close()
  await server?.close()
  await temporary.removeAll()
})

/** The client, with permission reads failing with `error`. */
function refusing(error: ApiError): KbClient {
  const wrapped = Object.create(client) as KbClient
  wrapped.getPermissions = async () => {
    throw error
  }
  return wrapped
}

const folder = () => temporary.make()

describe('pull reading permissions', () => {
  it('closed to the account: a warning, the content is pulled', async () => {
    const dir = await folder()
    const result = await pull({
      dir,
      client: refusing(
        new ApiError('denied', {status: 403, errorCode: 'knowledge_base_access_denied', method: 'GET', path: '/p'})
      ),
      rootTopicId: root
    })
    expect(result.status).toBe('ok')
    expect(result.diagnostics.map((d) => d.rule)).toContain('permissions-unreadable')
    expect(await readdir(dir)).toContain('Secret.md')
  })

  it('failing otherwise: the pull fails before writing, and a later pull gets them', async () => {
    const dir = await folder()
    await expect(
      pull({
        dir,
        client: refusing(new ApiError('boom', {status: 500, errorCode: 'server_error', method: 'GET', path: '/p'})),
        rootTopicId: root
      })
    ).rejects.toThrow('boom')
    expect((await readdir(dir)).filter((name) => name.endsWith('.md'))).toEqual([])
    const result = await pull({dir, client, rootTopicId: root})
    expect(result.status).toBe('ok')
    expect(result.written).toContain('Secret.md')
    expect(await readFile(path.join(dir, 'Secret.md'), 'utf8')).toContain('readers: [1001]')
  })
})

/**
 * Permissions on a server that conforms to the API contract and does not
 * move `updated_at` on a permissions change (issue 31): a folder that
 * manages permissions sees the web change in `status` and gets it from
 * `pull`; a folder that does not manage them reads none and gets none.
 */
import {existsSync} from 'node:fs'
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'
import {cli, edit, flatten} from './push-helpers.js'

const temporary = temporaryFolders('perms-conforming')
let server: Awaited<ReturnType<typeof startServer>>
let env: NodeJS.ProcessEnv
let client: KbClient

beforeAll(async () => {
  server = await startServer({port: 0, permissionsMoveStamp: false})
  env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: server.token}
  client = KbClient.fromEnv(env)
})
afterAll(async () => {
  await client.close()
  await server.close()
  await temporary.removeAll()
})

/** A folder of `files` pushed under a new root topic; the ids of its items by title. */
async function pushed(files: Record<string, string>): Promise<{dir: string; root: string; ids: Map<string, string>}> {
  const dir = await temporary.make()
  await writeFiles(dir, files)
  const root = (await client.createItem({type: 'topic', title: path.basename(dir), parent_topic_id: null})).id
  const result = await cli(['push', dir, '--root-topic', root], env)
  expect(result.code, result.err).toBe(0)
  const ids = new Map(flatten(await client.getTree(root)).map((item) => [item.titlePath, item.id]))
  return {dir, root, ids}
}

/** Sets permissions on the platform and checks that the item's stamp stayed. */
async function webPermissions(id: string, people: number[]): Promise<void> {
  const before = await client.getItem(id)
  await client.setPermissions(id, {readers: people, editors: people})
  const after = await client.getItem(id)
  expect(after.updated_at).toBe(before.updated_at)
}

describe('a permissions change that does not move updated_at', () => {
  it('shows in status and is pulled in a folder that manages permissions', async () => {
    const {dir, root, ids} = await pushed({
      'guarded.md': '---\ntitle: Guarded\npermissions:\n  readers: [1001]\n  editors: [1001]\n---\n\nSecret text.\n',
      'open.md': '---\ntitle: Open\n---\n\nOpen text.\n'
    })
    await webPermissions(ids.get('Open')!, [1002])

    const status = await cli(['status', dir, '--root-topic', root, '--json'], env)
    expect(status.code, status.err).toBe(0)
    const report = JSON.parse(status.out) as {remote: Array<{change: string; path: string}>; clean: boolean}
    expect(report.remote).toEqual([expect.objectContaining({change: 'permissions', path: 'open.md'})])

    const pull = await cli(['pull', dir, '--root-topic', root], env)
    expect(pull.code, pull.err).toBe(0)
    const open = await readFile(path.join(dir, 'open.md'), 'utf8')
    expect(open).toContain('readers: [1002]')
    expect(open).toContain('Open text.')
    const again = await cli(['status', dir, '--root-topic', root, '--json'], env)
    expect((JSON.parse(again.out) as {clean: boolean}).clean).toBe(true)
  })

  it('is neither read nor written in a folder that does not manage permissions', async () => {
    const {dir, root, ids} = await pushed({
      'plain.md': '---\ntitle: Plain\n---\n\nPlain text.\n',
      'team/_index.md': '---\ntitle: Team\n---\n\nThe team.\n',
      'team/notes.md': '---\ntitle: Notes\n---\n\nNotes.\n'
    })
    await webPermissions(ids.get('Plain')!, [1003])
    await client.setPermissions(ids.get('Team')!, {inherit: false, readers: [1003], editors: [1003]})
    server.resetLog()

    const status = await cli(['status', dir, '--root-topic', root, '--json'], env)
    expect(status.code, status.err).toBe(0)
    expect(JSON.stringify(JSON.parse(status.out).remote)).not.toContain('permissions')
    const pull = await cli(['pull', dir, '--root-topic', root], env)
    expect(pull.code, pull.err).toBe(0)
    expect(server.requestLog().filter((entry) => entry.endpoint === 'getPermissions')).toEqual([])
    for (const file of ['plain.md', 'team/_index.md', 'team/notes.md'])
      expect(await readFile(path.join(dir, file), 'utf8')).not.toContain('permissions')
    expect(existsSync(path.join(dir, 'team', '_permissions.yml'))).toBe(false)
  })

  it('is a conflict in status when the file declares other permissions too (exit 3)', async () => {
    const {dir, root, ids} = await pushed({
      'both.md': '---\ntitle: Both\npermissions:\n  readers: [1001]\n  editors: [1001]\n---\n\nBoth sides.\n'
    })
    await webPermissions(ids.get('Both')!, [1002])
    await edit(path.join(dir, 'both.md'), 'readers: [1001]', 'readers: [1001, 1003]')
    const status = await cli(['status', dir, '--root-topic', root, '--json'], env)
    expect(status.code, status.err).toBe(3)
    const report = JSON.parse(status.out) as {local: unknown[]; conflicts: Array<{path: string; reason: string}>}
    expect(report.conflicts).toEqual([
      expect.objectContaining({path: 'both.md', reason: expect.stringMatching(/permissions/)})
    ])
    expect(report.local).toEqual([])
  })

  it('is read in a folder that declares none when the configuration says it manages them', async () => {
    const {dir, root, ids} = await pushed({'doc.md': '---\ntitle: Doc\n---\n\nDoc text.\n'})
    await webPermissions(ids.get('Doc')!, [1004])
    const managed = {...env, KBSYNC_PERMISSIONS: 'manage'}
    const status = await cli(['status', dir, '--root-topic', root, '--json'], managed)
    expect(JSON.parse(status.out).remote).toEqual([expect.objectContaining({change: 'permissions', path: 'doc.md'})])
    const pull = await cli(['pull', dir, '--root-topic', root], managed)
    expect(pull.code, pull.err).toBe(0)
    expect(await readFile(path.join(dir, 'doc.md'), 'utf8')).toContain('readers: [1004]')
  })
})

/**
 * What a pull costs and what `--no-permissions` leaves out, through the CLI
 * against the local server over HTTP, counted in the server's request log:
 * a first pull is the structure, one record and one permissions read per
 * item and one download per file; a no-op pull is the structure and, in a
 * folder that manages permissions, one permissions read per item (a change
 * need not move `updated_at`, issue 31).
 */
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {cli} from '../e2e/push-helpers.js'
import {useLocalServer} from '../e2e/local-server.js'
import {temporaryFolders} from '../temp-folders.js'
import {snapshot} from './folder-snapshot.js'

const local = useLocalServer()
const temporary = temporaryFolders('pull-requests')
afterAll(() => temporary.removeAll())

/** Items under the root: a topic with permissions of its own, three articles (one with readers of its own, two showing files). */
let root: string
let ids: {team: string; secret: string}
const items = 4
const files = 2

beforeAll(async () => {
  const client = local.client
  root = (await client.createItem({type: 'topic', title: 'Requests', parent_topic_id: null})).id
  const team = (await client.createItem({type: 'topic', title: 'Team', parent_topic_id: root, body: 'Team pages.'})).id
  const scratch = await temporary.make()
  const guids: string[] = []
  for (const name of ['a.png', 'b.png']) {
    await writeFile(path.join(scratch, name), `bytes of ${name}`)
    guids.push((await client.uploadFile(path.join(scratch, name), {name})).guid)
  }
  const secret = (
    await client.createItem({
      type: 'article',
      title: 'Secret',
      parent_topic_id: team,
      body: `Secret text.\n\n![a](${guids[0]})`
    })
  ).id
  await client.createItem({
    type: 'article',
    title: 'Open',
    parent_topic_id: team,
    body: `For all.\n\n![b](${guids[1]})`
  })
  await client.createItem({type: 'article', title: 'Plain', parent_topic_id: root, body: 'Nothing to show.'})
  await client.setPermissions(team, {inherit: false, readers: [1001], editors: [1001]})
  await client.setPermissions(secret, {readers: [1002], editors: [1002]})
  ids = {team, secret}
})

/** Runs `kbsync pull DIR --root-topic ROOT ...extra`; resolves with its exit code and the requests the server saw, by endpoint. */
async function pullCounted(
  dir: string,
  ...extra: string[]
): Promise<{code: number; err: string; counts: Record<string, number>; total: number}> {
  local.server.resetLog()
  const run = await cli(['pull', dir, '--root-topic', root, ...extra], local.env)
  return {code: run.code, err: run.err, counts: local.server.counts(), total: local.server.requestLog().length}
}

/** The files of `dir` that carry permissions: permission files, and front matter naming `permissions`. */
async function permissionFiles(dir: string): Promise<string[]> {
  const all = await snapshot(dir)
  return Object.keys(all).filter(
    (name) => !name.startsWith('.kbsync') && (name.endsWith('_permissions.yml') || /^permissions:/m.test(all[name]!))
  )
}

describe('pull requests', () => {
  it('a first pull is the structure, a record and a permissions read per item, a download per file; a no-op pull reads the structure and the permissions', async () => {
    const dir = await temporary.make()
    const first = await pullCounted(dir)
    expect(first.code).toBe(0)
    expect(first.counts).toMatchObject({structure: 1, get: items, getPermissions: items, download: files, writes: 0})
    expect(first.total).toBe(1 + 2 * items + files)
    expect((await permissionFiles(dir)).sort()).toEqual(['Team/Secret.md', 'Team/_permissions.yml'])
    // Nothing waits in the download area once the pull is done.
    expect(Object.keys(await snapshot(dir)).filter((name) => name.startsWith('.kbsync/downloads'))).toEqual([])

    const again = await pullCounted(dir)
    expect(again.code).toBe(0)
    expect(again.counts).toMatchObject({structure: 1, getPermissions: items})
    expect(again.total).toBe(1 + items)
  })

  it('--no-permissions reads no permissions and writes no permission files; the next pull reads them only when the config says the folder manages them', async () => {
    const dir = await temporary.make()
    const run = await pullCounted(dir, '--no-permissions')
    expect(run.code).toBe(0)
    expect(run.counts.getPermissions ?? 0).toBe(0)
    expect(run.counts).toMatchObject({structure: 1, get: items, download: files})
    expect(await permissionFiles(dir)).toEqual([])
    expect(await readFile(path.join(dir, 'Team', 'Secret.md'), 'utf8')).toContain('Secret text.')

    // The folder declares no permissions: it does not manage them.
    const plain = await pullCounted(dir)
    expect(plain.code).toBe(0)
    expect(plain.counts.getPermissions ?? 0).toBe(0)
    expect(await permissionFiles(dir)).toEqual([])

    local.server.resetLog()
    const full = await cli(['pull', dir, '--root-topic', root], {...local.env, KBSYNC_PERMISSIONS: 'manage'})
    expect(full.code, full.err).toBe(0)
    expect(local.server.counts().getPermissions).toBe(items)
    expect((await permissionFiles(dir)).sort()).toEqual(['Team/Secret.md', 'Team/_permissions.yml'])
  })

  it('--no-permissions leaves permission files and front matter permissions in the folder as they are', async () => {
    const dir = await temporary.make()
    expect((await pullCounted(dir)).code).toBe(0)
    const teamFile = path.join(dir, 'Team', '_permissions.yml')
    const teamBefore = await readFile(teamFile, 'utf8')
    // On the platform: new permissions for both, and a new body for the article.
    await local.client.setPermissions(ids.team, {inherit: false, readers: [1003], editors: [1003]})
    await local.client.setPermissions(ids.secret, {readers: [1004], editors: [1004]})
    local.server.webEdit(ids.secret, {body: 'Secret text, edited on the web.'})

    const run = await pullCounted(dir, '--no-permissions')
    expect(run.code).toBe(0)
    expect(run.counts.getPermissions ?? 0).toBe(0)
    const secret = await readFile(path.join(dir, 'Team', 'Secret.md'), 'utf8')
    expect(secret).toContain('edited on the web')
    expect(secret).toContain('readers: [1002]')
    expect(await readFile(teamFile, 'utf8')).toBe(teamBefore)

    // The permissions it skipped are read by the next pull.
    const full = await pullCounted(dir)
    expect(full.code).toBe(0)
    expect(await readFile(path.join(dir, 'Team', 'Secret.md'), 'utf8')).toContain('readers: [1004]')
    expect(await readFile(teamFile, 'utf8')).toContain('readers: [1003]')
  })
})

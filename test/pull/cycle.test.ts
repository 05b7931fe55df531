/**
 * Pull and push against the in-memory client (fast; the end-to-end suite runs
 * the same laws against the real server): a pushed sample tree pulls into a
 * fresh folder that pushes back with no write; web edits come back as
 * exactly one changed file; conflicts keep both versions.
 */
import {cp, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {changed, snapshot} from './folder-snapshot.js'
import {push} from '../../src/sync/index.js'
import {pull} from '../../src/sync/pull/index.js'
import {FakeClient} from '../sync/fake-client.js'

/** The in-memory client, keeping uploaded bytes so files can be downloaded again. */
class Client extends FakeClient {
  bytes = new Map<string, Buffer>()
  override async uploadFile(file: string, options?: {name?: string}): Promise<{guid: string; md5_hash: string}> {
    const answer = await super.uploadFile(file, options)
    this.bytes.set(answer.guid, await readFile(file))
    return answer
  }
  async downloadFile(url: string, destPath: string): Promise<unknown> {
    this.calls.push(`GET file ${url}`)
    const guid = new URL(url).searchParams.get('Id')!
    await writeFile(destPath, this.bytes.get(guid)!)
    return {bytes: this.bytes.get(guid)!.length}
  }
}

const folders: string[] = []
async function folder(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-cycle-'))
  folders.push(dir)
  return dir
}

afterAll(async () => {
  for (const dir of folders) await rm(dir, {recursive: true, force: true})
})

describe('pull and push against the in-memory client', () => {
  const client = new Client()
  let dir: string

  beforeAll(async () => {
    const source = await folder()
    await cp(path.resolve('fixtures/handbook'), source, {recursive: true})
    const first = await push({dir: source, client})
    expect(first.status).toBe('ok')
    dir = await folder()
  })

  it('pulls the tree; a push of the pulled folder sends no write', async () => {
    const result = await pull({dir, client})
    expect(result.diagnostics.filter((d) => d.rule !== 'state-ignored')).toEqual([])
    expect(result.status).toBe('ok')
    const before = client.writes
    const again = await push({dir, client})
    expect(again.plan.ops).toEqual([])
    expect(client.writes - before).toBe(0)
  })

  it('a second pull writes nothing and reads only the structure and the permissions', async () => {
    const before = await snapshot(dir)
    client.calls.length = 0
    const result = await pull({dir, client})
    expect(result.written).toEqual([])
    // No record is read: nothing moved. The folder manages permissions (the first pull wrote them), and the API does
    // not promise that a permissions change moves `updated_at`, so every item's are read (issue 31).
    expect(client.calls[0]).toBe('GET structure')
    expect(client.calls.slice(1).every((call) => call.startsWith('GET permissions '))).toBe(true)
    expect(changed(before, await snapshot(dir))).toEqual([])
  })

  it('a document moved on the platform moves on disk, links to it follow, and a push sends nothing', async () => {
    const {paths} = (await pull({dir, client, dryRun: true})).plan
    const idOf = (p: string) => Object.entries(paths).find(([, at]) => at === p)![0]
    const moved = idOf('Engineering/Development setup.md')
    await client.updateItem(moved, {parent_topic_id: idOf('Support'), parent_topic_id_changed: true})
    const result = await pull({dir, client})
    expect(result.status).toBe('ok')
    expect(result.plan.ops.filter((op) => !op.refresh).map((op) => [op.op, op.from, op.path])).toEqual([
      ['move', 'Engineering/Development setup.md', 'Support/Development setup.md']
    ])
    expect(await readFile(path.join(dir, 'Welcome to Acme.md'), 'utf8')).toContain('(Support/Development%20setup.md)')
    expect(await readFile(path.join(dir, 'Engineering/Code review.md'), 'utf8')).toContain(
      '(../Support/Development%20setup.md)'
    )
    const before = client.writes
    const again = await push({dir, client})
    expect(again.plan.ops).toEqual([])
    expect(client.writes - before).toBe(0)
  })

  it('a web edit comes back as exactly that file; with a local edit too, it is a conflict', async () => {
    const before = await snapshot(dir)
    const [id, file] = Object.entries((await pull({dir, client, dryRun: true})).plan.paths).find(([, p]) =>
      p.endsWith('.md')
    )!
    client.webEdit(id, {body: 'Rewritten on the web.'})
    const result = await pull({dir, client})
    expect(result.status).toBe('ok')
    expect(changed(before, await snapshot(dir))).toEqual([file])
    expect(await readFile(path.join(dir, file), 'utf8')).toContain('Rewritten on the web.')

    client.webEdit(id, {body: 'Again on the web.'})
    await writeFile(
      path.join(dir, file),
      (await readFile(path.join(dir, file), 'utf8')).replace('Rewritten on the web.', 'Edited locally.')
    )
    const conflict = await pull({dir, client})
    expect(conflict.status).toBe('conflict')
    expect(await readFile(path.join(dir, file), 'utf8')).toContain('Edited locally.')
    expect(await readFile(path.join(dir, file.replace(/\.md$/, '.remote.md')), 'utf8')).toContain('Again on the web.')
  })
})

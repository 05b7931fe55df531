import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {pushOptionsOf, type SyncSession} from '../../src/cli/session.js'
import {scanFolder} from '../../src/local/index.js'
import {planPush, push} from '../../src/sync/index.js'
import {FakeClient} from './fake-client.js'

const temporary: string[] = []
afterAll(async () => {
  for (const dir of temporary) await rm(dir, {recursive: true, force: true})
})

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-ignore-'))
  temporary.push(dir)
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), {recursive: true})
    await writeFile(path.join(dir, name), text)
  }
  return dir
}

describe('the config ignore patterns', () => {
  const files = {
    'a.md': '# Alpha\n\nA.\n',
    'drafts/wip.md': '# WIP\n\nNot yet.\n',
    'notes-private.md': '# Private\n\nMine.\n',
    '.kbsyncignore': 'b.md\n',
    'b.md': '# Beta\n\nB.\n'
  }

  it('the scan skips them like .kbsyncignore patterns', async () => {
    const dir = await folder(files)
    expect(Object.keys((await scanFolder(dir)).byPath).sort()).toEqual([
      '',
      'a.md',
      'drafts',
      'drafts/wip.md',
      'notes-private.md'
    ])
    const scan = await scanFolder(dir, {ignore: ['drafts/', '*-private.md']})
    expect(Object.keys(scan.byPath).sort()).toEqual(['', 'a.md'])
  })

  it('plan and push honour them', async () => {
    const dir = await folder(files)
    const client = new FakeClient()
    const ignore = ['drafts/', '*-private.md']
    expect((await planPush({dir, client, ignore})).ops.map((o) => o.path)).toEqual(['a.md'])
    expect((await push({dir, client, ignore})).status).toBe('ok')
    expect([...client.items.values()].map((s) => s.title)).toEqual(['Alpha'])
  })

  it('the CLI passes the config key to the engine', () => {
    const client = new FakeClient()
    const session = {
      config: {dir: '/x', rootTopic: null, prune: false, maxDeletions: 10, concurrency: 8, ignore: ['drafts/']},
      target: {client}
    } as unknown as SyncSession
    expect(pushOptionsOf(session).ignore).toEqual(['drafts/'])
  })
})

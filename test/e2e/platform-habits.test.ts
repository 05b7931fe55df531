/**
 * Round trips against a server that stores bodies the way the spec says the
 * platform gives them back (soft line breaks as trailing backslashes, `\_`,
 * `| --- |` rows): push, push again, pull elsewhere, push from there, pull
 * again, push without the state. Each second step must write nothing and
 * change no file.
 */
import {mkdir, readdir, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {temporaryFolders} from '../temp-folders.js'
import {KbClient} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'
import {bodyOf, cli, flatten} from './push-helpers.js'
import {changed, snapshot} from '../pull/folder-snapshot.js'

type Server = Awaited<ReturnType<typeof startServer>>

let server: Server
let client: KbClient
let env: NodeJS.ProcessEnv
let root: string
const temporary = temporaryFolders('habits')

beforeAll(async () => {
  server = await startServer({port: 0, platformHabits: true})
  env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: server.token}
  client = KbClient.fromEnv(env)
  root = (await client.createItem({type: 'topic', title: 'Habits', parent_topic_id: null})).id
})

afterAll(async () => {
  await client?.close()
  await server?.close()
  await temporary.removeAll()
})

const folder = () => temporary.make()

const writes = () => server.counts().writes

describe('against a server with the platform habits', () => {
  it('push, push, pull elsewhere, push, pull: every second step is a no-op', async () => {
    const dir = await folder()
    await mkdir(path.join(dir, 'guides'))
    await writeFile(
      path.join(dir, 'guides', 'setup.md'),
      '# Setup\n\nRun the snake_case tool\nand wait for it.\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n> [!NOTE]\n> A note\n> on two lines.\n'
    )
    await writeFile(
      path.join(dir, 'welcome.md'),
      '# Welcome\n\nStart with [the setup](guides/setup.md).\nThen read on.\n'
    )
    expect((await cli(['push', dir, '--root-topic', root], env)).code).toBe(0)
    const stored = bodyOf(
      await client.getItem(flatten(await client.getTree(root)).find((e) => e.titlePath === 'guides / Setup')!.id)
    )
    // The server really did change the body as the platform would.
    expect(stored).toContain('Run the snake\\_case tool\\\nand wait for it.')

    let before = writes()
    expect((await cli(['push', dir, '--root-topic', root], env)).code).toBe(0)
    expect(writes() - before).toBe(0)

    const elsewhere = await folder()
    const pulled = await cli(['pull', elsewhere, '--root-topic', root], env)
    expect(pulled.code, pulled.err).toBe(0)
    expect(pulled.err).not.toMatch(/pull-lossy/)
    before = writes()
    const pushed = await cli(['push', elsewhere, '--root-topic', root], env)
    expect(pushed.code, pushed.err).toBe(0)
    expect(writes() - before).toBe(0)

    // A run without the state (CI that lost its cache): the wrapped paragraphs came back with hard breaks, and are still ours.
    await rm(path.join(dir, '.kbsync'), {recursive: true})
    before = writes()
    const stateless = await cli(['push', dir, '--root-topic', root], env)
    expect(stateless.code, stateless.err).toBe(0)
    expect(writes() - before).toBe(0)

    for (const target of [elsewhere, dir]) {
      const files = await snapshot(target)
      const again = await cli(['pull', target, '--root-topic', root], env)
      expect(again.code, again.err).toBe(0)
      expect(changed(files, await snapshot(target))).toEqual([])
    }
  })

  it('a pull into the folder without its state (a fresh clone of pushed docs) keeps the files that say what the platform holds, copies none', async () => {
    const dir = await folder()
    await mkdir(path.join(dir, 'guides'))
    await writeFile(path.join(dir, 'guides', 'setup.md'), '# Setup\n\nRun the snake_case tool\nand wait for it.\n')
    await writeFile(
      path.join(dir, 'welcome.md'),
      '# Welcome\n\nStart with [the setup](guides/setup.md).\nThen read on.\n\n![Logo](img/logo.png)\n'
    )
    await mkdir(path.join(dir, 'img'))
    await writeFile(path.join(dir, 'img', 'logo.png'), 'logo bytes')
    await writeFile(path.join(dir, 'notes.md'), '---\ntitle: Notes\n---\n\nFirst notes.\n')
    const topic = (await client.createItem({type: 'topic', title: 'Adopted', parent_topic_id: root})).id
    expect((await cli(['push', dir, '--root-topic', topic], env)).code).toBe(0)
    await rm(path.join(dir, '.kbsync'), {recursive: true})
    const notes = flatten(await client.getTree(topic)).find((e) => e.titlePath === 'Notes')!.id
    await client.updateItem(notes, {body: 'Notes edited on the platform.'})

    const files = await snapshot(dir)
    const pulled = await cli(['pull', dir, '--root-topic', topic], env)
    // The one document that differs has never been synced here: a conflict copy, not an overwrite. No copy of the
    // logo either: welcome.md keeps using its own file.
    expect(pulled.code, pulled.err).toBe(3)
    expect(pulled.err).toContain('notes.md was never synced and differs from the platform')
    expect(changed(files, await snapshot(dir))).toEqual(['notes.remote.md'])
    expect((await readdir(dir)).filter((name) => name.includes('('))).toEqual([])

    // The adopted documents are recorded as synced: a push sends nothing for them.
    await rm(path.join(dir, 'notes.remote.md'))
    await writeFile(path.join(dir, 'notes.md'), '---\ntitle: Notes\n---\n\nNotes edited on the platform.\n')
    const before = writes()
    const pushed = await cli(['push', dir, '--root-topic', topic], env)
    expect(pushed.code, pushed.err).toBe(0)
    expect(writes() - before).toBe(0)
  })
})

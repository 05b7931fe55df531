/**
 * `kbsync watch` as users run it: the built CLI as a child process against
 * the local server; a save is pushed and shown on the status line, and
 * SIGINT (Ctrl-C) stops it cleanly (exit 0) with the sync state saved.
 */
import {builtCli} from '../built.js'
import {spawn, type ChildProcess} from 'node:child_process'
import {chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'
import {remoteTree, spawnWatch, waitFor, watchEnv} from './helpers.js'

let server: Awaited<ReturnType<typeof startServer>>
let client: KbClient
let dir: string
let child: ChildProcess | undefined

/** The environment of a child `kbsync` talking to the local server. */
function childEnv(): NodeJS.ProcessEnv {
  return watchEnv(server)
}

beforeAll(async () => {
  server = await startServer({port: 0})
  client = new KbClient({apiUrl: server.apiUrl, filesUrl: server.filesUrl, token: server.token})
  dir = await mkdtemp(path.join(tmpdir(), 'kbsync-watch-cli-'))
  await writeFile(path.join(dir, 'note.md'), '# Note\n\nFirst.\n')
})

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL')
  await client?.close()
  await server?.close()
  await rm(dir, {recursive: true, force: true})
})

describe('kbsync watch (child process)', () => {
  it('pushes a save, shows it, and stops on SIGINT with the state saved', async () => {
    const root = (await client.createItem({type: 'topic', title: 'Watch CLI', parent_topic_id: null})).id
    child = spawn(process.execPath, [builtCli, 'watch', dir, '--root-topic', root, '--debounce', '100'], {
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    let err = ''
    child.stdout!.on('data', (d) => (out += String(d)))
    child.stderr!.on('data', (d) => (err += String(d)))
    const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)))

    await waitFor('the first push', () => /pushed: 1 created/.test(out), 15_000).catch((e) => {
      throw new Error(`${(e as Error).message}\nstdout: ${out}\nstderr: ${err}`)
    })
    expect(out).toContain('Watching')
    await writeFile(path.join(dir, 'note.md'), '# Note\n\nSecond, saved while watching.\n')
    await waitFor('the pushed save', () => /pushed: 1 updated/.test(out), 10_000)
    const id = (await remoteTree(client, root)).find((e) => e.title === 'Note')!.id
    expect((await client.getItem(id)).body).toContain('Second')

    child.kill('SIGINT')
    expect(await exited).toBe(0)
    expect(out).toContain('Stopped; the sync state is saved.')
    const state = JSON.parse(await readFile(path.join(dir, '.kbsync', 'state.json'), 'utf8'))
    expect(state.items['note.md'].id).toBe(id)
    expect(out + err).not.toContain(server.token)
  }, 40_000)

  it('keeps watching a folder with symbolic link loops and an unreadable folder, warning once per entry', async () => {
    const root = (await client.createItem({type: 'topic', title: 'Watch loops', parent_topic_id: null})).id
    const loops = await mkdtemp(path.join(tmpdir(), 'kbsync-watch-loops-'))
    await writeFile(path.join(loops, 'note.md'), '# Note\n\nFirst.\n')
    await symlink('l2', path.join(loops, 'l1'))
    await symlink('l1', path.join(loops, 'l2'))
    await symlink('.', path.join(loops, 'self'))
    await mkdir(path.join(loops, 'locked'))
    // Root reads a folder of mode 000 all the same: the warning about it is only asserted where permissions bite.
    const permissionsBite = process.getuid?.() !== 0
    await chmod(path.join(loops, 'locked'), 0o000)
    const {
      child: watcher,
      out: outOf,
      err: errOf,
      explained
    } = spawnWatch([loops, '--root-topic', root, '--debounce', '100'], server)
    try {
      if (permissionsBite) {
        // A folder it may not read blocks the plan (skipping it could let --prune delete what it holds); watching goes on.
        await waitFor('the blocked first push', () => /not pushed: fix the errors above/.test(outOf()), 15_000).catch(
          explained
        )
        expect(errOf()).toMatch(/^locked: error: .*cannot be read/m)
        await chmod(path.join(loops, 'locked'), 0o755)
        await rm(path.join(loops, 'locked'), {recursive: true})
        await writeFile(path.join(loops, 'note.md'), '# Note\n\nFirst, once the unreadable folder is gone.\n')
      }
      await waitFor('the first push', () => /pushed: 1 created/.test(outOf()), 15_000).catch(explained)
      await writeFile(path.join(loops, 'note.md'), '# Note\n\nSecond, saved beside the loops.\n')
      await waitFor('the pushed save', () => /pushed: 1 updated/.test(outOf()), 10_000)
      const id = (await remoteTree(client, root)).find((e) => e.title === 'Note')!.id
      expect((await client.getItem(id)).body).toContain('Second')
      for (const link of ['l1', 'l2', 'self'])
        expect(errOf().match(new RegExp(`^${link}: warning: .*symbolic link`, 'gim')) ?? [], errOf()).toHaveLength(1)
      expect(errOf()).not.toMatch(/ELOOP|\n\s+at /)
    } finally {
      const exited =
        watcher.exitCode ?? watcher.signalCode ?? new Promise<number | null>((resolve) => watcher.once('exit', resolve))
      watcher.kill('SIGINT')
      await chmod(path.join(loops, 'locked'), 0o755).catch(() => undefined) // gone already where permissions bite
      await rm(loops, {recursive: true, force: true})
      expect(await exited, errOf()).toBe(0)
    }
  }, 40_000)
})

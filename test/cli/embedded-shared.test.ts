/**
 * One embedded knowledge base, any number of kbsync processes (issue 18):
 * real CLI processes on one folder. The first serves the data file and
 * records where; the others use its server, so a deletion made by one is
 * never written back by another; a stale record is replaced; `serve` on a
 * file served already is refused; `pull NEWDIR --from DIR` reads another
 * folder's knowledge base.
 */
import {spawn} from 'node:child_process'
import {mkdir, readFile, realpath, rm, stat, writeFile} from 'node:fs/promises'
import {existsSync} from 'node:fs'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {loadConfig} from '../../src/cli/config.js'
import {connect} from '../../src/cli/connect.js'
import {sealOwnerRecord} from '../../src/trust/index.js'
import {temporaryFolders} from '../temp-folders.js'
import {waitFor} from '../watch/helpers.js'
import {deadPid, embeddedEnv, runCli, startCli, storedItems, type CliProcess} from './embedded-processes.js'
import {builtFile} from '../built.js'

const folders = temporaryFolders('embedded')
const running: CliProcess[] = []
afterAll(async () => {
  for (const p of running) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL')
  await folders.removeAll()
})

const dataOf = (dir: string) => path.join(dir, '.kbsync', 'local-kb.json')
const recordOf = (dir: string) => `${dataOf(dir)}.lock`

/** A folder holding `files`. */
async function folderWith(files: Record<string, string>): Promise<string> {
  const dir = await folders.make()
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text)
  return dir
}

function started(args: string[], cwd: string): CliProcess {
  const p = startCli(args, cwd)
  running.push(p)
  return p
}

/** Waits for `pattern` in the output of `p`, with its output in the failure. */
function seen(p: CliProcess, pattern: RegExp, timeoutMs = 15_000): Promise<true> {
  return waitFor(String(pattern), () => pattern.test(p.out()), timeoutMs).catch((error: Error) => {
    throw new Error(`${error.message}\nstdout: ${p.out()}\nstderr: ${p.err()}`)
  })
}

describe('one embedded knowledge base, several processes', () => {
  it('watch running, push --prune in another process deletes an article, a save later: the deletion is kept and every edit is there', async () => {
    const dir = await folderWith({'a.md': '# A\n\nFirst.\n', 'b.md': '# B\n\nTo be deleted.\n'})
    const watch = started(['watch', '.', '--debounce', '100'], dir)
    await seen(watch, /pushed: 2 created/)
    // The watcher owns the data file and says where it serves it, to its user alone.
    const record = JSON.parse(await readFile(recordOf(dir), 'utf8'))
    expect(record).toMatchObject({pid: watch.child.pid, command: 'watch'})
    expect(record.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v4$/)
    expect((await stat(recordOf(dir))).mode & 0o777).toBe(0o600)

    await rm(path.join(dir, 'b.md'))
    await seen(watch, /1 changed: b\.md[\s\S]*(up to date|pushed)/)
    const prune = await runCli(['push', '.', '--prune'], dir)
    expect(prune.err).toBe('')
    expect(prune.code).toBe(0)
    expect(prune.out).toContain(`served by kbsync process ${watch.child.pid}`)
    expect(prune.out).toMatch(/deleted article b\.md/)

    await writeFile(path.join(dir, 'a.md'), '# A\n\nSecond, saved after the prune.\n')
    await seen(watch, /pushed: 1 updated/)
    watch.child.kill('SIGINT')
    expect(await watch.exited).toBe(0)
    expect(existsSync(recordOf(dir))).toBe(false)

    const items = await storedItems(dataOf(dir))
    expect(items.map((item) => item.title)).toEqual(['A'])
    expect(items[0]!.body).toContain('Second, saved after the prune.')
    const plan = await runCli(['plan', '.', '--exit-code'], dir)
    expect(plan.out).toContain('No changes')
    expect(plan.code).toBe(0)
  }, 60_000)

  it('serve running: a push goes through its server, a second serve of the file is refused, and the data file keeps the push', async () => {
    const dir = await folderWith({'a.md': '# A\n\nPushed while serve runs.\n'})
    const serve = started(['serve'], dir)
    await seen(serve, /Local knowledge base at (\S+)\/v4/)
    const apiUrl = /Local knowledge base at (\S+)/.exec(serve.out())![1]!

    const push = await runCli(['push', '.'], dir)
    expect(push.code).toBe(0)
    expect(push.out).toContain(`served by kbsync process ${serve.child.pid}`)
    const client = new KbClient({apiUrl, token: 'kbsync-local-token'})
    try {
      expect((await client.getTree()).map((node) => node.title)).toEqual(['A'])
    } finally {
      await client.close()
    }

    const second = await runCli(['serve'], dir)
    expect(second.code).toBe(2)
    expect(second.err).toContain(`served already by kbsync process ${serve.child.pid} (\`kbsync serve\`) at ${apiUrl}`)

    serve.child.kill('SIGTERM')
    expect(await serve.exited).toBe(0)
    expect(existsSync(recordOf(dir))).toBe(false)
    expect((await storedItems(dataOf(dir))).map((item) => [item.title, item.body])).toEqual([
      ['A', 'Pushed while serve runs.\n']
    ])
    expect((await runCli(['plan', '.'], dir)).out).toContain('No changes')
  }, 60_000)

  it('a record left by a dead process is replaced, and removed when the run ends', async () => {
    const dir = await folderWith({'a.md': '# A\n\nText.\n'})
    await runCli(['push', '.'], dir)
    const stale = {pid: deadPid(), nonce: 'stale', command: 'watch', apiUrl: 'http://127.0.0.1:9/v4', token: 'x'}
    await writeFile(recordOf(dir), JSON.stringify(stale), {mode: 0o600})
    await writeFile(path.join(dir, 'a.md'), '# A\n\nEdited.\n')
    const push = await runCli(['push', '.'], dir)
    expect(push.err).toBe('')
    expect(push.code).toBe(0)
    expect(push.out).not.toContain('served by')
    expect(push.out).toMatch(/updated article a\.md/)
    expect(existsSync(recordOf(dir))).toBe(false)
  }, 30_000)

  it('a record of a live process that nothing answers for is replaced after a grace period', async () => {
    const dir = await folderWith({'a.md': '# A\n\nText.\n'})
    // This test's own process: alive, and no kbsync server at port 9.
    await mkdir(path.dirname(recordOf(dir)))
    await writeFile(
      recordOf(dir),
      JSON.stringify({pid: process.pid, nonce: 'other', command: 'watch', apiUrl: 'http://127.0.0.1:9/v4', token: 'x'}),
      {mode: 0o600}
    )
    const push = await runCli(['push', '.'], dir)
    expect(push.err).toBe('')
    expect(push.code).toBe(0)
    expect(push.out).toMatch(/created article a\.md/)
    expect(existsSync(recordOf(dir))).toBe(false)
  }, 30_000)

  it('an owner that is stopping is waited for, however long it refuses, and never taken over', async () => {
    const dir = await folderWith({'a.md': '# A\n\nText.\n'})
    const owner = spawn(process.execPath, ['-e', 'setTimeout(() => undefined, 60000)'])
    try {
      await mkdir(path.dirname(recordOf(dir)))
      // Sealed as a kbsync process of this user writes it (an unsealed record is not believed: it is replaced).
      const record = sealOwnerRecord(
        {
          pid: owner.pid!,
          nonce: 'closing',
          command: 'watch',
          apiUrl: 'http://127.0.0.1:9/v4',
          token: 'x',
          closing: true
        },
        path.join(await realpath(path.dirname(recordOf(dir))), 'local-kb.json')
      )
      await writeFile(recordOf(dir), JSON.stringify(record), {mode: 0o600})
      const push = started(['push', '.'], dir)
      // Past the grace period a silent live owner gets: still waiting.
      await new Promise((resolve) => setTimeout(resolve, 6500))
      expect(push.child.exitCode).toBe(null)
      expect(JSON.parse(await readFile(recordOf(dir), 'utf8')).nonce).toBe('closing')
      // The owner has saved and removes its record: the push goes on.
      await rm(recordOf(dir))
      expect(await push.exited).toBe(0)
      expect(push.out()).toMatch(/created article a\.md/)
    } finally {
      owner.kill('SIGKILL')
    }
  }, 30_000)

  it('the owner removes its record on SIGTERM and on SIGINT when no command of its own handles them', async () => {
    const dir = await folders.make()
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const script = `import(${JSON.stringify(builtFile('src/cli/connect.js'))}).then(async ({connect}) => {
        await connect({dir: ${JSON.stringify(dir)}, concurrency: 2, maxRateLimitWait: 60})
        console.log('owner')
      })
      setInterval(() => undefined, 1000)`
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        env: embeddedEnv(),
        stdio: ['ignore', 'pipe', 'inherit']
      })
      let out = ''
      child.stdout.on('data', (d) => (out += String(d)))
      const exited = new Promise((resolve) => child.on('exit', (_code, received) => resolve(received)))
      await waitFor('the owner', () => out.includes('owner'), 10_000)
      expect(JSON.parse(await readFile(recordOf(dir), 'utf8')).pid).toBe(child.pid)
      child.kill(signal)
      expect(await exited).toBe(signal)
      expect(existsSync(recordOf(dir))).toBe(false)
    }
  }, 30_000)

  it('the owner exits between two requests of another process: the next request serves the knowledge base itself, nothing lost', async () => {
    const dir = await folders.make()
    const serve = started(['serve'], dir)
    await seen(serve, /Local knowledge base at/)
    const connection = await connect(await loadConfig({cwd: dir, env: {}}), {cwd: dir})
    try {
      expect(connection.description).toContain(`served by kbsync process ${serve.child.pid}`)
      await connection.client.createItem({
        type: 'article',
        title: 'Before',
        parent_topic_id: null,
        body: 'Written through serve.'
      })
      serve.child.kill('SIGTERM')
      expect(await serve.exited).toBe(0)
      await connection.client.createItem({
        type: 'article',
        title: 'After',
        parent_topic_id: null,
        body: 'Written by the new owner.'
      })
      expect(JSON.parse(await readFile(recordOf(dir), 'utf8')).pid).toBe(process.pid)
    } finally {
      await connection.close()
    }
    expect(existsSync(recordOf(dir))).toBe(false)
    expect((await storedItems(dataOf(dir))).map((item) => item.title)).toEqual(['Before', 'After'])
  }, 60_000)

  it('the owner exits during a request of another process: that request fails naming the owner, the next one goes through', async () => {
    const dir = await folders.make()
    const serve = started(['serve', '--latency', '1000'], dir)
    await seen(serve, /Local knowledge base at/)
    const connection = await connect(await loadConfig({cwd: dir, env: {}}), {cwd: dir})
    try {
      const inFlight = connection.client.getTree()
      const failure = expect(inFlight).rejects.toThrow(
        new RegExp(`kbsync process ${serve.child.pid}, \`kbsync serve\`\\) stopped\\. Run the command again`)
      )
      await new Promise((resolve) => setTimeout(resolve, 300))
      serve.child.kill('SIGTERM')
      await failure
      expect(await connection.client.getTree()).toEqual([])
    } finally {
      await connection.close()
    }
    expect(existsSync(recordOf(dir))).toBe(false)
  }, 60_000)

  it('pull NEWDIR --from DIR pulls the embedded knowledge base of DIR, also while DIR is watched', async () => {
    const dir = await folderWith({'guide.md': '# Guide\n\nHow to.\n'})
    expect((await runCli(['push', '.'], dir)).code).toBe(0)
    const copy = path.join(await folders.make(), 'copy')
    const pulled = await runCli(['pull', copy, '--from', dir], dir)
    expect(pulled.err).toBe('')
    expect(pulled.code).toBe(0)
    expect(await readFile(path.join(copy, 'Guide.md'), 'utf8')).toContain('How to.')

    const watch = started(['watch', '.', '--debounce', '100'], dir)
    await seen(watch, /up to date|pushed/)
    await writeFile(path.join(dir, 'guide.md'), '# Guide\n\nHow to, edited while watched.\n')
    await seen(watch, /pushed: 1 updated/)
    const again = await runCli(['pull', copy, '--from', dir], dir)
    expect(again.code).toBe(0)
    expect(again.out).toContain(`served by kbsync process ${watch.child.pid}`)
    expect(await readFile(path.join(copy, 'Guide.md'), 'utf8')).toContain('edited while watched')
    watch.child.kill('SIGINT')
    expect(await watch.exited).toBe(0)

    const missing = await runCli(['pull', copy, '--from', path.join(copy, 'nowhere')], dir)
    expect(missing.code).toBe(2)
    expect(missing.err).toContain('has no embedded knowledge base')
  }, 60_000)
})

/**
 * A full disk, end to end through the CLI: the folder lives on a small
 * tmpfs (root may mount one; elsewhere the suite is skipped) filled up to a
 * few kilobytes before the run, so kbsync's own writes (the state, its
 * journal, the caches, pulled files) run out of space in the middle of it.
 * The run must end with one message naming the file, counting what changed
 * on the platform and saying that the next run completes it; once space is
 * freed, the next run converges without uploading any file a second time.
 */
import {execFileSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {startServer, type RunningServer} from '../../src/server/index.js'
import {generateTree, runCli} from './helpers.js'

let server: RunningServer
let env: NodeJS.ProcessEnv
let mount = ''
let mounted = false

/** Mounts a tmpfs of `size` at a fresh folder; false where the OS refuses (not root, no tmpfs). */
function mountTmpfs(size: string): boolean {
  mount = mkdtempSync(path.join(tmpdir(), 'kbsync-disk-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', mount], {stdio: 'ignore'})
    return true
  } catch {
    return false
  }
}

/** Fills the file system of `mount` up to `free` bytes left. */
function fill(free: number): void {
  const stats = statfsSync(mount)
  const available = stats.bavail * stats.bsize
  writeFileSync(path.join(mount, 'filler'), Buffer.alloc(Math.max(0, available - free)))
}

function unfill(): void {
  rmSync(path.join(mount, 'filler'), {force: true})
}

beforeAll(async () => {
  mounted = mountTmpfs('4m')
  server = await startServer({port: 0})
  env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: server.token}
})

// A failed test must not leave the disk full for the next one.
afterEach(() => {
  if (mounted) unfill()
})

afterAll(async () => {
  await server?.close()
  if (mounted) execFileSync('umount', [mount])
  if (mount) rmSync(mount, {recursive: true, force: true})
})

/** A new root topic on the server, for one test. */
async function newRoot(): Promise<string> {
  const {KbClient} = await import('../../src/api/index.js')
  const client = KbClient.fromEnv(env)
  const root = await client.createItem({type: 'topic', title: `Root ${Math.random()}`, parent_topic_id: null})
  await client.close()
  return root.id
}

/** The lines of a run's output that tell of a failure. */
function failureLines(run: {out: string; err: string}): string[] {
  return (run.out + '\n' + run.err).split('\n').filter((line) => /^error:|ENOSPC|could not be written/i.test(line))
}

/** The applied requests of `endpoint` since the log entry `from`. */
function applied(endpoint: string, from: number): number {
  return server
    .requestLog()
    .slice(from)
    .filter((e) => e.endpoint === endpoint && e.status === 200).length
}

/** The one failure line of a run stopped by a full disk: names the file, counts the changes, says the next run completes it. */
function expectOneGroupedMessage(
  run: {code: number; out: string; err: string},
  command: string,
  changed: RegExp
): void {
  expect(run.code).toBe(1)
  const lines = failureLines(run)
  expect(lines, lines.join('\n')).toHaveLength(1)
  const line = lines[0]!
  expect(line).toMatch(new RegExp(`^kbsync ${command}: could not write .+?: no space left on the device \\(ENOSPC\\)`))
  expect(line).toMatch(changed)
  expect(line).toContain(`run kbsync ${command} again: it completes the job`)
}

describe('a full disk', () => {
  it('push: one message naming the file and what changed; the next run uploads nothing twice', async (ctx) => {
    if (!mounted) return ctx.skip()
    const dir = path.join(mount, 'push')
    mkdirSync(dir)
    await generateTree(dir, 150, {perTopic: 20, imageEvery: 5})
    const root = await newRoot()
    fill(160 * 1024)
    const from = server.requestLog().length
    const first = await runCli(['push', dir, '--root-topic', root, '--yes'], env)
    expectOneGroupedMessage(
      first,
      'push',
      /this run had already created \d+ items.*recorded in \.kbsync\/state\.journal/
    )
    const createdFirst = applied('create', from)
    expect(createdFirst).toBeGreaterThan(0)
    expect(createdFirst).toBeLessThan(158)
    unfill()
    const second = await runCli(['push', dir, '--root-topic', root, '--yes'], env)
    expect(second.code, second.err).toBe(0)
    expect(failureLines(second)).toEqual([])
    // Every image uploaded once over both runs, every item created once: the first run's steps were all recorded.
    expect(applied('upload', from)).toBe(30)
    expect(applied('create', from)).toBe(150 + 8)
    const third = await runCli(['plan', dir, '--root-topic', root], env)
    expect(third.out).toMatch(/No changes: the knowledge base matches the folder/)
  }, 120_000)

  it('pull: one grouped message, not one per article; the next pull completes it', async (ctx) => {
    if (!mounted) return ctx.skip()
    const source = path.join(mount, 'source')
    mkdirSync(source)
    await generateTree(source, 100, {perTopic: 20, imageEvery: 5})
    const root = await newRoot()
    const pushed = await runCli(['push', source, '--root-topic', root, '--yes'], env)
    expect(pushed.code, pushed.err).toBe(0)
    rmSync(source, {recursive: true, force: true})
    const dir = path.join(mount, 'pull')
    mkdirSync(dir)
    fill(40 * 1024)
    const first = await runCli(['pull', dir, '--root-topic', root], env)
    expectOneGroupedMessage(
      first,
      'pull',
      /Before that, (nothing was changed|in the folder this run had already written \d+ files)/
    )
    unfill()
    const second = await runCli(['pull', dir, '--root-topic', root], env)
    expect(second.code, second.err).toBe(0)
    expect(failureLines(second)).toEqual([])
    const plan = await runCli(['plan', dir, '--root-topic', root], env)
    expect(plan.out).toMatch(/No changes: the knowledge base matches the folder/)
  }, 120_000)
})

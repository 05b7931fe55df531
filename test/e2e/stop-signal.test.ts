/**
 * A run stopped by SIGTERM or SIGINT (a CI job cancelled, Ctrl-C): the built
 * CLI, spawned on a generated tree of realistic articles (`bench/scale-tree.ts`),
 * is signalled while it scans, while it writes to the platform, and while a
 * pull converts and writes. Each time it must exit within 3 s with 143 (130
 * for SIGINT) and one line saying how far it got, leave the state parseable
 * and no temporary file, and the next run must converge: the server holds
 * each article once, a push after writes nothing, and the folder after a
 * stopped pull and a second pull equals a clean pull.
 */
import type {ChildProcess} from 'node:child_process'
import {readdir, readFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {generateScaleTree} from '../../bench/scale-tree.js'
import {temporaryFolders} from '../temp-folders.js'
import {useLocalServer} from './local-server.js'
import {cli, flatten, spawnCli} from './push-helpers.js'

const local = useLocalServer()
const folders = temporaryFolders('stop')
afterAll(() => folders.removeAll())

/**
 * How long a stopped run may take to exit: the 3 s, on a machine
 * that gives the process a core (a machine loaded beyond its cores stretches
 * every step alike).
 */
const promptMs = 3000 * Math.max(1, os.loadavg()[0]! / os.availableParallelism())

interface Stopped {
  /** Whether the signal was sent (the run had not ended before the moment came). */
  sent: boolean
  code: number | null
  signal: string | null
  /** From the signal to the exit. */
  stopMs: number
  err: string
}

/** Spawns `kbsync <argv>` and sends it `signal` once `due(stdout)` holds (polled); resolves when it is gone. */
function stopWhen(
  argv: string[],
  due: (out: string, requests: number) => boolean,
  signal: NodeJS.Signals = 'SIGTERM'
): Promise<Stopped> {
  const base = local.server.requestLog().length
  const child: ChildProcess = spawnCli(argv, local.env)
  let out = ''
  let err = ''
  child.stdout!.on('data', (d) => (out += String(d)))
  child.stderr!.on('data', (d) => (err += String(d)))
  let sentAt: number | undefined
  const poll = setInterval(() => {
    if (sentAt === undefined && due(out, local.server.requestLog().length - base)) {
      sentAt = performance.now()
      child.kill(signal)
    }
  }, 5)
  return new Promise((resolve) => {
    child.on('exit', (code, received) => {
      clearInterval(poll)
      const stopMs = performance.now() - (sentAt ?? performance.now())
      resolve({sent: sentAt !== undefined, code, signal: received, stopMs, err})
    })
  })
}

/** Temporary files of kbsync anywhere in `dir` (`.NAME.PID.N.tmp`, `.NAME.PID.X.part`, early downloads). */
async function temporaryFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, {recursive: true, withFileTypes: true})
  return entries
    .filter((e) => e.isFile() && (/\.(tmp|part)$/.test(e.name) || e.parentPath.includes('.kbsync/downloads')))
    .map((e) => path.join(e.parentPath, e.name))
}

/** The state file of `dir` parses (when there is one). */
async function expectStateReadable(dir: string): Promise<void> {
  const text = await readFile(path.join(dir, '.kbsync', 'state.json'), 'utf8').catch(() => undefined)
  if (text !== undefined) expect(() => JSON.parse(text)).not.toThrow()
}

/** What a stopped run must have left: the exit code, promptly, one line, a readable state, no temporary file. */
async function expectStoppedCleanly(run: Stopped, dir: string, code = 143): Promise<void> {
  expect(run.sent, `the run ended before the signal was due: ${run.err}`).toBe(true)
  expect(run.signal, run.err).toBeNull()
  expect(run.code, run.err).toBe(code)
  expect(run.stopMs).toBeLessThan(promptMs)
  expect(run.err.match(/: stopped: \d+ (of \d+ )?written.*; run again to finish$/gm), run.err).toHaveLength(1)
  await expectStateReadable(dir)
  expect(await temporaryFiles(dir)).toEqual([])
}

/** Every file of `dir` but kbsync's own, with its text. */
async function folderText(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {}
  for (const entry of await readdir(dir, {recursive: true, withFileTypes: true})) {
    const file = path.relative(dir, path.join(entry.parentPath, entry.name))
    if (entry.isFile() && !file.startsWith('.kbsync')) files[file] = await readFile(path.join(dir, file), 'latin1')
  }
  return files
}

const linesOf = (out: string, pattern: RegExp) => out.split('\n').filter((line) => pattern.test(line)).length

describe('SIGTERM and SIGINT stop a run promptly, and the next run converges', () => {
  it('push: stopped while scanning and while writing, then pushed once, without twins', async () => {
    const src = await folders.make()
    const tree = await generateScaleTree(src, 100)
    // While scanning: the structure read goes out as the scan starts.
    const scanning = await stopWhen(['push', src], (_out, requests) => requests >= 1)
    await expectStoppedCleanly(scanning, src)
    expect(scanning.err).toContain('stopped: 0 written (while planning)')
    // While writing: a few dozen writes landed, many more are queued and in flight.
    const writing = await stopWhen(['push', src], (_out, requests) => requests >= 50)
    await expectStoppedCleanly(writing, src)
    const done = Number(/stopped: (\d+) of (\d+) written/.exec(writing.err)?.[1])
    expect(done).toBeGreaterThan(0)
    expect(done).toBeLessThan(tree.articles)

    const again = await cli(['push', src], local.env)
    expect(again.code, again.err).toBe(0)
    const remote = flatten(await local.client.getTree(null))
    // Each article and topic once: nothing lost, nothing duplicated.
    expect(remote.filter((e) => e.type === 'article')).toHaveLength(tree.articles)
    expect(remote.filter((e) => e.type === 'topic')).toHaveLength(tree.topics)
    expect(new Set(remote.map((e) => e.titlePath)).size).toBe(remote.length)
    const noop = await cli(['push', src], local.env)
    expect(noop.code, noop.err).toBe(0)
    expect(noop.out + noop.err).toContain('0 write requests')
  }, 240_000)

  it('pull: stopped while converting and writing, then pulled again, equals a clean pull', async () => {
    const into = await folders.make()
    // SIGINT while planning (the records are read), then SIGTERM while the documents are converted and written.
    const planning = await stopWhen(['pull', into], (_out, requests) => requests >= 20, 'SIGINT')
    await expectStoppedCleanly(planning, into, 130)
    const writing = await stopWhen(['pull', into], (out) => linesOf(out, /^wrote article /) >= 30)
    await expectStoppedCleanly(writing, into)
    expect(writing.err).toMatch(/stopped: [1-9]\d* of \d+ written/)

    const again = await cli(['pull', into], local.env)
    expect(again.code, again.err).toBe(0)
    const clean = await folders.make()
    const whole = await cli(['pull', clean], local.env)
    expect(whole.code, whole.err).toBe(0)
    expect(await folderText(into)).toEqual(await folderText(clean))
  }, 240_000)
})

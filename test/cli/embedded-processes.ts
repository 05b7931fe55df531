/** Helpers of the suites that run several kbsync processes on one embedded knowledge base. */
import {spawn, spawnSync, type ChildProcess} from 'node:child_process'
import {startServer} from '../../src/server/index.js'
import type {KbItem} from '../../src/api/types.js'
import {builtCli} from '../built.js'

/** The built CLI (the suites' global setup compiles it). */
export const cliPath = builtCli

/** The environment of a child `kbsync` with no API configured: the embedded knowledge base. */
export function embeddedEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {...process.env, NO_COLOR: '1'}
  for (const key of Object.keys(env)) if (key.startsWith('KBSYNC_') || key === 'GITHUB_ACTIONS') delete env[key]
  return env
}

/** A running `kbsync` child process with its output so far. */
export interface CliProcess {
  child: ChildProcess
  out(): string
  err(): string
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string | null>
}

/** Starts `kbsync <args>` in `cwd`. */
export function startCli(args: string[], cwd: string): CliProcess {
  const child = spawn(process.execPath, [cliPath, ...args], {
    cwd,
    env: embeddedEnv(),
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  let err = ''
  child.stdout!.on('data', (d) => (out += String(d)))
  child.stderr!.on('data', (d) => (err += String(d)))
  const exited = new Promise<number | string | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal))
  )
  return {child, out: () => out, err: () => err, exited}
}

/** Runs `kbsync <args>` in `cwd` to its end. */
export async function runCli(
  args: string[],
  cwd: string
): Promise<{code: number | string | null; out: string; err: string}> {
  const running = startCli(args, cwd)
  const code = await running.exited
  return {code, out: running.out(), err: running.err()}
}

/** The items a data file holds, read by a server of its own (no other process may be using the file). */
export async function storedItems(dataPath: string): Promise<KbItem[]> {
  const server = await startServer({dataPath, port: 0})
  try {
    return server.items()
  } finally {
    await server.close()
  }
}

/** The pid of a process that has exited. */
export function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!
}

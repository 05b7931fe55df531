/** Helpers of the CLI suites: an in-process run of `kbsync` with captured output. */
import {cp, mkdtemp} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {PassThrough} from 'node:stream'
import {main} from '../../src/cli/index.js'

/** The outcome of one run. */
export interface Run {
  code: number
  out: string
  err: string
}

/** Runs `kbsync <argv>` in-process in `cwd` with exactly `env` (and `stdin` as its standard input). */
export async function run(
  argv: string[],
  options: {cwd: string; env?: NodeJS.ProcessEnv; stdin?: string}
): Promise<Run> {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (d) => (out += String(d)))
  stderr.on('data', (d) => (err += String(d)))
  const stdin = new PassThrough()
  stdin.end(options.stdin ?? '')
  const code = await main(argv, {cwd: options.cwd, env: options.env ?? {}, stdout, stderr, stdin})
  return {code, out, err}
}

/** A fresh temporary folder. */
export function tempDir(prefix = 'kbsync-cli-'): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix))
}

/** A copy of a fixture folder in a fresh temporary folder; returns the copy's path. */
export async function copyOf(fixture: string): Promise<string> {
  const dir = path.join(await tempDir(), path.basename(fixture))
  await cp(path.resolve(fixture), dir, {recursive: true})
  return dir
}

/**
 * Helpers of the reliability suite: the built CLI as a child process (so a
 * crash is a crash, not a caught exception) and a generated article tree.
 */
import type {CliRun} from '../e2e/push-helpers.js'
import {spawnCli} from '../e2e/push-helpers.js'

/** Runs `kbsync <argv>` (the built CLI) to its end and collects its output. */
export function runCli(argv: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(argv, env)
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += String(d)))
    child.stderr.on('data', (d) => (err += String(d)))
    child.on('error', reject)
    child.on('exit', (code, signal) => resolve({code: code ?? (signal ? 128 : 1), out, err}))
  })
}

export {generateTree} from '../../bench/tree.js'

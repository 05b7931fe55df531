/** Helpers of the server suites: servers started for one test and closed after it. */
import {builtCli} from '../built.js'
import {spawn, type ChildProcessByStdio} from 'node:child_process'
import type {Readable} from 'node:stream'
import {afterEach} from 'vitest'
import {startServer, type RunningServer, type ServerOptions} from '../../src/server/index.js'

/** A started server and `call`, which sends JSON with its token to a path under its API URL. */
export interface Started {
  server: RunningServer
  call(method: string, path: string, body?: unknown): Promise<{status: number; json: any}>
}

/** Returns `start(options)`, which starts a server (with `defaults` under `options`) that is closed after the test. */
export function serversPerTest(defaults: ServerOptions = {}): (options?: ServerOptions) => Promise<Started> {
  const servers: RunningServer[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()))
  })
  return async (options = {}) => {
    const server = await startServer({...defaults, ...options})
    servers.push(server)
    const call: Started['call'] = async (method, path, body) => {
      const headers: Record<string, string> = {
        authorization: `Bearer ${server.token}`,
        'content-type': 'application/json'
      }
      const response = await fetch(server.apiUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body)
      })
      return {status: response.status, json: await response.json()}
    }
    return {server, call}
  }
}

/** A `kbsync serve` child process of the built CLI, once it printed its API URL. */
export interface Served {
  child: ChildProcessByStdio<null, Readable, Readable>
  apiUrl: string
  /** Everything it printed so far. */
  out(): string
  /** Resolves to its output once that matches `pattern` (the lines after the URL come in later writes). */
  printed(pattern: RegExp): Promise<string>
  /** Stops it with SIGINT; resolves to its exit code. */
  stop(): Promise<number | null>
}

/** Spawns `kbsync serve <args>` from the build (`builtCli`) and waits until it prints where it listens (rejects with its output if it exits first). */
export async function spawnServe(
  args: string[],
  options: {cwd?: string; env?: NodeJS.ProcessEnv} = {}
): Promise<Served> {
  const child = spawn(process.execPath, [builtCli, 'serve', ...args], {
    cwd: options.cwd,
    env: {...process.env, ...options.env},
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  let err = ''
  const waiting = new Set<() => void>()
  child.stderr.on('data', (d) => (err += String(d)))
  child.stdout.on('data', (d) => {
    out += String(d)
    for (const check of waiting) check()
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const apiUrl = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /at (http:\/\/127\.0\.0\.1:\d+\/v4)/.exec(out)
      if (match) resolve(match[1]!)
    }
    waiting.add(check)
    void exited.then(() => reject(new Error(out + err)))
  })
  return {
    child,
    apiUrl,
    out: () => out,
    printed(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(out)) return
          waiting.delete(check)
          resolve(out)
        }
        waiting.add(check)
        check()
        void exited.then(() => reject(new Error(`exited without printing ${pattern}:\n${out}${err}`)))
      })
    },
    stop() {
      child.kill('SIGINT')
      return exited
    }
  }
}

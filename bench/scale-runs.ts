/**
 * The measured runs of the scale benchmark: a push or pull of a folder in a
 * child process (`scale-child.js`) against a local server of the bench
 * process, with the server's own CPU time over the same span.
 */
import {spawn} from 'node:child_process'
import {readdir} from 'node:fs/promises'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import type {RunningServer} from '../src/server/index.js'

/** What one child reports, with the server's CPU time while it ran. */
export interface ScaleRun {
  ms: number
  /** The child's CPU time (user and system). */
  cpuMs: number
  /** The child's peak resident set. */
  maxRssMb: number
  requests: number
  failed: number
  status: string
  /** CPU time of the bench process (the server) while the child ran. */
  serverCpuMs: number
}

/** Runs `scale-child.js` (`push` or `pull` of `dir`); rejects unless it ends `ok` with no failed step. */
export function runInChild(
  mode: 'push' | 'pull',
  dir: string,
  server: Pick<RunningServer, 'apiUrl' | 'filesUrl' | 'token'>,
  concurrency = 8
): Promise<ScaleRun> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'scale-child.js')
  const cpu = process.cpuUsage()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, mode, dir, server.apiUrl, server.filesUrl, String(concurrency)], {
      env: {...process.env, KBSYNC_TOKEN: server.token},
      stdio: ['ignore', 'pipe', 'inherit']
    })
    let out = ''
    child.stdout.on('data', (d) => (out += String(d)))
    child.on('error', reject)
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${mode} child exited ${code}`))
      const used = process.cpuUsage(cpu)
      const run = {
        ...(JSON.parse(out.trim().split('\n').pop()!) as Omit<ScaleRun, 'serverCpuMs'>),
        serverCpuMs: (used.user + used.system) / 1000
      }
      if (run.status !== 'ok' || run.failed > 0)
        return reject(new Error(`${mode} of ${dir} ended ${run.status} with ${run.failed} failed steps`))
      resolve(run)
    })
  })
}

/** Every `.md` file under `dir` (iterative walk), absolute paths. */
export async function markdownFiles(dir: string): Promise<string[]> {
  const found: string[] = []
  const pending = [dir]
  while (pending.length > 0) {
    const folder = pending.pop()!
    for (const entry of await readdir(folder, {withFileTypes: true})) {
      const full = path.join(folder, entry.name)
      if (entry.isDirectory() && !entry.name.startsWith('.')) pending.push(full)
      else if (entry.isFile() && entry.name.endsWith('.md')) found.push(full)
    }
  }
  return found
}

/** `ms` as seconds, one decimal. */
export const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** One run as a table cell: wall, CPU, peak RSS, requests, the server's CPU. */
export function describeRun(run: ScaleRun): string {
  return `${secs(run.ms)} (CPU ${secs(run.cpuMs)}; peak ${run.maxRssMb.toFixed(0)} MB; ${run.requests} requests; server CPU ${secs(run.serverCpuMs)})`
}

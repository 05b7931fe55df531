/** Helpers of the watch suites: a captured reporter, waiting for a condition, the remote tree, a watch child. */
import {spawn, type ChildProcess} from 'node:child_process'
import {createReporter, type OutputStream, type Reporter} from '../../src/cli/output/index.js'
import type {KbClient} from '../../src/api/index.js'
import type {StructureNode} from '../../src/api/types.js'
import {builtCli} from '../built.js'

/** A reporter writing to strings (not a TTY). */
export function capturedReporter(): {reporter: Reporter; out: () => string; err: () => string} {
  let out = ''
  let err = ''
  const stdout: OutputStream = {write: (s: string) => (out += s)}
  const stderr: OutputStream = {write: (s: string) => (err += s)}
  return {reporter: createReporter({stdout, stderr, env: {}}), out: () => out, err: () => err}
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 8000
): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** A remote item with the titles of its ancestors. */
export interface Entry {
  id: string
  type: 'article' | 'topic'
  title: string
  /** Titles from under the root down to the item, joined by ` / `. */
  titlePath: string
  parentId: string | null
}

/** The remote tree under `root`, flattened. */
export async function remoteTree(client: KbClient, root: string): Promise<Entry[]> {
  const out: Entry[] = []
  const walk = (nodes: StructureNode[], prefix: string) => {
    for (const node of nodes) {
      const titlePath = prefix ? `${prefix} / ${node.title}` : node.title
      out.push({id: node.id, type: node.type, title: node.title, titlePath, parentId: node.parent_topic_id})
      walk(node.children ?? [], titlePath)
    }
  }
  walk(await client.getTree(root), '')
  return out
}

/** The environment of a child `kbsync` talking to the local server at `server` (no CI, config or folder of the caller's). */
export function watchEnv(server: {apiUrl: string; filesUrl: string; token: string}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    KBSYNC_API_URL: server.apiUrl,
    KBSYNC_FILES_URL: server.filesUrl,
    KBSYNC_TOKEN: server.token,
    NO_COLOR: '1'
  }
  for (const key of ['GITHUB_ACTIONS', 'KBSYNC_CONFIG', 'KBSYNC_DIR']) delete env[key]
  return env
}

/** A `kbsync watch` child of the built CLI talking to the local server at `server`, its output gathered. */
export function spawnWatch(
  args: readonly string[],
  server: {apiUrl: string; filesUrl: string; token: string}
): {child: ChildProcess; out: () => string; err: () => string; explained: (e: Error) => never} {
  const env = watchEnv(server)
  const child = spawn(process.execPath, [builtCli, 'watch', ...args], {env, stdio: ['ignore', 'pipe', 'pipe']})
  let out = ''
  let err = ''
  child.stdout!.on('data', (d) => (out += String(d)))
  child.stderr!.on('data', (d) => (err += String(d)))
  return {
    child,
    out: () => out,
    err: () => err,
    explained: (e) => {
      throw new Error(`${e.message}\nstdout: ${out}\nstderr: ${err}`)
    }
  }
}

/**
 * Helpers of the push end-to-end suites: a copy of a sample tree, the CLI run
 * in-process (or as a child process) against the real local server, and a
 * reading of the remote tree through the real client.
 */
import {spawn} from 'node:child_process'
import {cp, mkdir, mkdtemp, readFile, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {run, type Run} from '../cli/helpers.js'
import type {KbItem, StructureNode} from '../../src/api/types.js'
import type {RunningServer} from '../../src/server/index.js'
import {builtCli} from '../built.js'

/** A fresh copy of `fixtures/trees/<name>` (or any folder) in a temporary directory. */
export async function copyFixture(source: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-e2e-'))
  await cp(path.resolve(source), dir, {recursive: true})
  return dir
}

/**
 * A copy of `fixtures/trees/<name>` made a git repository (so configuration
 * and navigation files above the pushed folder are found); its path is added
 * to `folders`, for the caller to remove.
 */
export async function fixtureRepository(name: string, folders: string[]): Promise<string> {
  const dir = await copyFixture(path.join('fixtures/trees', name))
  folders.push(dir)
  await mkdir(path.join(dir, '.git'))
  return dir
}

/** The remote tree as indented lines: `[T] title` for topics, in the platform's order. */
export function outline(nodes: StructureNode[], depth = 0): string[] {
  return nodes.flatMap((node) => [
    `${'  '.repeat(depth)}${node.type === 'topic' ? '[T] ' : ''}${node.title}`,
    ...outline(node.children ?? [], depth + 1)
  ])
}

/** Replaces `from` by `to` in a file (fails loudly when `from` is absent). */
export async function edit(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(file, 'utf8')
  if (!text.includes(from)) throw new Error(`${JSON.stringify(from)} not in ${file}`)
  await writeFile(file, text.replace(from, to))
}

/** The outcome of one CLI run. */
export type CliRun = Run

/** Runs `kbsync <argv>` in-process with `env`. */
export function cli(argv: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return run(argv, {cwd: tmpdir(), env})
}

/** Spawns the built CLI (`builtCli`). */
export function spawnCli(argv: string[], env: NodeJS.ProcessEnv) {
  return spawn(process.execPath, [builtCli, ...argv], {
    cwd: tmpdir(),
    env: {...process.env, ...env},
    stdio: ['ignore', 'pipe', 'pipe']
  })
}

/** A remote item with its path of titles, read through the client. */
export interface RemoteEntry {
  id: string
  type: 'article' | 'topic'
  /** Titles from the root down, joined by ` / `. */
  titlePath: string
  parentId: string | null
}

/** Flattens a structure into entries with title paths. */
export function flatten(nodes: StructureNode[], prefix = ''): RemoteEntry[] {
  return nodes.flatMap((node) => {
    const titlePath = prefix ? `${prefix} / ${node.title}` : node.title
    return [
      {id: node.id, type: node.type, titlePath, parentId: node.parent_topic_id},
      ...flatten(node.children ?? [], titlePath)
    ]
  })
}

/** The body of an item without the `# <title>` heading the server puts first. */
export function bodyOf(item: KbItem): string {
  const body = item.body ?? ''
  const heading = `# ${item.title}\n`
  return body.startsWith(heading) ? body.slice(heading.length).replace(/^\n+/, '') : body
}

/** The write requests (`METHOD path`) `server` received while `work` ran. */
export async function writesDuring(server: RunningServer, work: () => Promise<unknown>): Promise<string[]> {
  const from = server.requestLog().length
  await work()
  return server
    .requestLog()
    .slice(from)
    .filter((entry) => entry.write)
    .map((entry) => `${entry.method} ${entry.path}`)
}

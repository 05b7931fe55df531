/**
 * Round trips that must settle: after a pull and a push, the next pull
 * changes no file and the next push writes nothing. Shared by the pull
 * suites that change a tree on the web and pull it back.
 */
import {readdir, rmdir} from 'node:fs/promises'
import type {StructureNode} from '../../src/api/types.js'
import path from 'node:path'
import {expect} from 'vitest'
import {snapshot} from './docs-sites.js'
import type {useLocalServer} from './local-server.js'
import {cli} from './push-helpers.js'

type LocalServer = ReturnType<typeof useLocalServer>

/** Runs the CLI with `args` against `local`, expecting exit code 0; its output. */
export async function runOk(local: LocalServer, args: string[]): Promise<string> {
  const result = await cli(args, local.env)
  expect(result.code, result.err + result.out).toBe(0)
  return result.out + result.err
}

/** Removes the empty folders under `dir` (deepest first), as a fresh clone of the repository has none. */
export async function asCloned(dir: string): Promise<void> {
  const folders = (await readdir(dir, {recursive: true, withFileTypes: true}))
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort((a, b) => b.length - a.length)
  for (const folder of folders) if ((await readdir(folder)).length === 0) await rmdir(folder)
}

/** A pull (`pull`'s arguments) changes no file of `src` and the push after it writes nothing: the tree has settled. */
export async function expectSettled(local: LocalServer, src: string, pull: string[], push: string[]): Promise<void> {
  const before = await snapshot(src)
  await runOk(local, pull)
  expect(await snapshot(src)).toEqual(before)
  local.server.resetLog()
  const pushed = await runOk(local, push)
  expect(local.server.counts().writes ?? 0, pushed).toBe(0)
}

/** The item titled `title` under the topic `root` on `local`'s server (walked with a stack); throws when there is none. */
export async function itemTitled(local: LocalServer, root: string, title: string): Promise<StructureNode> {
  const stack = [...(await local.client.getTree(root))]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.title === title) return node
    stack.push(...(node.children ?? []))
  }
  throw new Error(`no item titled ${title}`)
}

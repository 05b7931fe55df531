/**
 * End-to-end: pull into docs trees a navigation shapes (real corpora:
 * mdBook `SUMMARY.md`, MkDocs `nav`, Hugo bundles), in-process through the
 * CLI against the real local server. Pull right after push writes nothing;
 * web edits land in the files the documents came from; an article created,
 * deleted, moved or retitled on the web lands in its folder and in the
 * navigation file, every other line byte for byte; a second pull and a push
 * after it write nothing.
 */
import {cp, mkdir, readdir, readFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import type {StructureNode} from '../../src/api/types.js'
import {temporaryFolders} from '../temp-folders.js'
import {useLocalServer} from './local-server.js'
import {bodyOf, cli} from './push-helpers.js'

const local = useLocalServer()
const temporary = temporaryFolders('pull-layouts')
const corpora = process.env.KBSYNC_CORPORA ?? path.resolve(import.meta.dirname, '../../../shared/corpora')

afterAll(() => temporary.removeAll())

/** A copy of the corpus `name` in a repository of its own; returns the folder `sub` of it. */
async function corpus(name: string, sub: string): Promise<string> {
  const repo = await temporary.make()
  await mkdir(path.join(repo, '.git'))
  await cp(path.join(corpora, name), repo, {recursive: true})
  return path.join(repo, sub)
}

/** Every file under `dir` (the state folder aside) with its text. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {}
  for (const entry of await readdir(dir, {recursive: true, withFileTypes: true})) {
    const file = path.relative(dir, path.join(entry.parentPath, entry.name))
    if (entry.isFile() && !file.startsWith('.kbsync')) files[file] = await readFile(path.join(dir, file), 'utf8')
  }
  return files
}

/** The files whose text differs between two snapshots (added, removed or changed). */
function changed(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)])
  return [...names].filter((name) => before[name] !== after[name]).sort()
}

/** Pushes `dir` under a fresh root topic; returns the root's id. */
async function pushed(dir: string, title: string): Promise<string> {
  const root = (await local.client.createItem({type: 'topic', title, parent_topic_id: null})).id
  const run = await cli(['push', dir, '--root-topic', root, '--broken-links=warn'], local.env)
  expect(run.code, run.err).toBe(0)
  return root
}

async function pull(dir: string, root: string): Promise<void> {
  const run = await cli(['pull', dir, '--root-topic', root], local.env)
  expect(run.code, run.err + run.out).toBe(0)
}

/** A pull and a push after it write nothing. */
async function settled(dir: string, root: string): Promise<void> {
  const before = await snapshot(dir)
  await pull(dir, root)
  expect(changed(before, await snapshot(dir))).toEqual([])
  local.server.resetLog()
  const again = await cli(['push', dir, '--root-topic', root, '--broken-links=warn'], local.env)
  expect(again.code, again.err).toBe(0)
  expect(local.server.counts().writes).toBe(0)
}

async function find(root: string, title: string): Promise<StructureNode> {
  const stack = [...(await local.client.getTree(root))]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.title === title) return node
    stack.push(...(node.children ?? []))
  }
  throw new Error(`no item titled ${title}`)
}

/** Replaces `from` by `to` in the body of the item titled `title` on the platform. */
async function webEdit(root: string, title: string, from: string, to: string): Promise<void> {
  const node = await find(root, title)
  const body = bodyOf(await local.client.getItem(node.id))
  expect(body).toContain(from)
  await local.client.updateItem(node.id, {body: body.replace(from, to)})
}

describe('an mdBook tree (rust-by-example, SUMMARY.md)', () => {
  it('pulls in place: edits land in the chapter files, and SUMMARY.md follows creations, deletions, moves and retitles', async () => {
    const src = await corpus('rust-by-example', 'src')
    const root = await pushed(src, 'Rust by Example')
    const start = await snapshot(src)
    await pull(src, root)
    expect(changed(start, await snapshot(src))).toEqual([])

    // A chapter with sub-chapters is a topic whose body is its page: the edit lands there, no `_index.md` appears.
    await webEdit(root, 'Hello World', 'the traditional Hello World', 'the classic Hello World')
    const hello = await find(root, 'Hello World')
    await local.client.createItem({type: 'article', title: 'Greetings', parent_topic_id: hello.id, body: 'Hi.'})
    await local.client.deleteItem((await find(root, 'Comments')).id)
    const primitives = await find(root, 'Primitives')
    await local.client.moveItem((await find(root, 'Debug')).id, primitives.id)
    await local.client.updateItem((await find(root, 'Tuples')).id, {title: 'Tuples and pairs'})
    await pull(src, root)

    const after = await snapshot(src)
    expect(after['hello.md']).toContain('the classic Hello World')
    expect(after['hello/_index.md']).toBeUndefined()
    expect(after['hello/Greetings.md']).toContain('Hi.')
    expect(after['hello/comment.md']).toBeUndefined()
    expect(after['primitives/Debug.md']).toBeDefined()
    expect(after['hello/print/print_debug.md']).toBeUndefined()
    const summary = after['SUMMARY.md']!.split('\n')
    const was = start['SUMMARY.md']!.split('\n')
    // Every other line byte for byte: the edits are exactly these.
    expect(summary.filter((line) => !was.includes(line)).sort()).toEqual([
      '    - [Debug](primitives/Debug.md)',
      '    - [Greetings](hello/Greetings.md)',
      '    - [Tuples and pairs](primitives/tuples.md)'
    ])
    expect(was.filter((line) => !summary.includes(line))).toEqual([
      '    - [Comments](hello/comment.md)',
      '        - [Debug](hello/print/print_debug.md)',
      '    - [Tuples](primitives/tuples.md)'
    ])
    // In the platform's order among their siblings.
    const chapters = (from: string) => {
      const start = summary.indexOf(from)
      const end = summary.findIndex((line, index) => index > start && line.startsWith('- '))
      return summary
        .slice(start + 1, end)
        .filter((line) => line.startsWith('    - '))
        .map((line) => /\[(.*)\]/.exec(line)![1])
    }
    const titles = async (title: string) => ((await find(root, title)).children ?? []).map((child) => child.title)
    expect(chapters('- [Hello World](hello.md)')).toEqual(await titles('Hello World'))
    expect(chapters('- [Primitives](primitives.md)')).toEqual(await titles('Primitives'))
    await settled(src, root)
  }, 300_000)
})

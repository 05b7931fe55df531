/**
 * End-to-end: pull into docs trees a navigation shapes (real corpora:
 * mdBook `SUMMARY.md`, MkDocs `nav`, Hugo bundles), in-process through the
 * CLI against the real local server. Pull right after push writes nothing;
 * web edits land in the files the documents came from; an article created,
 * deleted, moved or retitled on the web lands in its folder and in the
 * navigation file, every other line byte for byte; a second pull and a push
 * after it write nothing.
 */
import {existsSync} from 'node:fs'
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
  expect(local.server.counts().writes, again.out + again.err).toBe(0)
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

describe.skipIf(!existsSync(corpora))('an mdBook tree (rust-by-example, SUMMARY.md)', () => {
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

describe.skipIf(!existsSync(corpora))('an MkDocs tree (mkdocs-docs, nav in mkdocs.yml)', () => {
  it('adds, removes and retitles nav entries where the platform did, in its order; everything else byte for byte', async () => {
    const dir = await corpus('mkdocs-docs', '.')
    const root = await pushed(dir, 'MkDocs')
    const start = await snapshot(dir)
    await pull(dir, root)
    expect(changed(start, await snapshot(dir))).toEqual([])

    const about = await find(root, 'About')
    await local.client.createItem({
      type: 'article',
      title: 'Security',
      parent_topic_id: about.id,
      body: 'Report issues.'
    })
    // Nobody links to it (a deleted link target would change the bodies that name it on the next push).
    await local.client.deleteItem((await find(root, 'License')).id)
    await local.client.updateItem((await find(root, 'Release Notes')).id, {title: 'Changes'})
    await pull(dir, root)

    const after = await snapshot(dir)
    expect(after['docs/about/Security.md']).toContain('Report issues.')
    expect(after['docs/about/license.md']).toBeUndefined()
    const nav = after['mkdocs.yml']!.split('\n')
    const was = start['mkdocs.yml']!.split('\n')
    expect(nav.filter((line) => !was.includes(line)).sort()).toEqual([
      '    - Changes: about/release-notes.md',
      '    - Security: about/Security.md'
    ])
    expect(was.filter((line) => !nav.includes(line)).sort()).toEqual([
      '    - License: about/license.md',
      '    - Release Notes: about/release-notes.md'
    ])
    const children = ((await find(root, 'About')).children ?? []).map((child) => child.title)
    const inAbout = nav.slice(nav.indexOf('  - About:') + 1)
    const listed = inAbout
      .slice(
        0,
        inAbout.findIndex((line) => !line.startsWith('    - '))
      )
      .map((line) => /- (.*?):/.exec(line)![1])
    expect(listed).toEqual(children)
    await settled(dir, root)
  }, 300_000)
})

describe.skipIf(!existsSync(corpora))('a Hugo tree (docsy-docs, page bundles)', () => {
  it('writes a web edit of a bundle’s body into its index.md: no _index.md appears beside it', async () => {
    const dir = await corpus('docsy-docs', 'docsy.dev/content/en')
    const root = await pushed(dir, 'Docsy')
    const start = await snapshot(dir)
    await pull(dir, root)
    expect(changed(start, await snapshot(dir))).toEqual([])
    await webEdit(root, 'Examples and templates', 'One of the best ways', 'One of the finest ways')
    await pull(dir, root)
    const after = await snapshot(dir)
    // The body's images are the document step's (downloaded where the body names them); no other document changes.
    expect(changed(start, after).filter((file) => !file.includes('/_assets/'))).toEqual(['examples/index.md'])
    expect(after['examples/_index.md']).toBeUndefined()
    expect(after['examples/index.md']).toContain('One of the finest ways')
    await settled(dir, root)
  }, 300_000)
})

describe.skipIf(!existsSync(corpora))('a Docusaurus tree (redux-docs, autogenerated sidebar)', () => {
  it('writes an article created on the web into its topic’s folder; the folder needs no navigation edit', async () => {
    const dir = await corpus('redux-docs', '.')
    const root = await pushed(dir, 'Redux')
    const start = await snapshot(dir)
    await pull(dir, root)
    expect(changed(start, await snapshot(dir))).toEqual([])
    const introduction = await find(root, 'Introduction')
    await local.client.createItem({
      type: 'article',
      title: 'Glossary',
      parent_topic_id: introduction.id,
      body: 'Terms.'
    })
    await pull(dir, root)
    const after = await snapshot(dir)
    expect(changed(start, after)).toEqual(['introduction/Glossary.md'])
    await settled(dir, root)
  }, 300_000)
})

/**
 * Structure edits made on the web, pulled back: the push right after the
 * pull writes nothing, and a file keeps its name. Each test is one cause
 * the corpora showed (gemini-cli, docsy, mkdocs, redux): links to an
 * article deleted on the web left in the pages naming it (the push then
 * published them as text), a moved file renamed from its title
 * (`part-5-async-logic.md` became `Redux Essentials, Part 5 - ….md`), and
 * a topic renamed on the web whose title its page's heading gives.
 */
import {mkdir, readFile, readdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, expect, it} from 'vitest'
import {useLocalServer} from './local-server.js'
import {cli, flatten, writesDuring} from './push-helpers.js'
import {temporaryFolders} from '../temp-folders.js'

const local = useLocalServer()
const folders = temporaryFolders('structure-round-trip')
afterAll(() => folders.removeAll())

/** Pushes a folder of two topics; gives the folder, the root and the ids by title. */
async function pushed(): Promise<{dir: string; root: string; ids: Map<string, string>}> {
  const repo = await folders.make()
  await mkdir(path.join(repo, '.git'))
  const dir = path.join(repo, 'docs')
  await mkdir(path.join(dir, 'tutorials'), {recursive: true})
  await mkdir(path.join(dir, 'hooks'), {recursive: true})
  await writeFile(path.join(dir, 'intro.md'), '# Intro\n\nFirst [the async part](tutorials/part-5-async.md).\n')
  await writeFile(path.join(dir, 'tutorials/part-5-async.md'), '# Part 5 - Async logic\n\nAwait it.\n')
  await writeFile(path.join(dir, 'tutorials/files.md'), '# Files\n\nOn to [hooks](../hooks/index.md).\n')
  await writeFile(path.join(dir, 'hooks/index.md'), '# Gemini CLI hooks\n\nHooks are scripts.\n')
  await writeFile(path.join(dir, 'hooks/reference.md'), '# Reference\n\nBack to [files](../tutorials/files.md).\n')
  const root = (await local.client.createItem({type: 'topic', title: 'Structure', parent_topic_id: null})).id
  const push = await cli(['push', dir, '--root-topic', root], local.env)
  expect(push.code, push.err).toBe(0)
  const entries = flatten(await local.client.getTree(root))
  const ids = new Map(entries.map((entry) => [entry.titlePath.split(' / ').pop()!, entry.id]))
  return {dir, root, ids}
}

/** Pulls, then pushes: the write requests of that push. */
async function pullThenPush(dir: string, root: string): Promise<string[]> {
  const pulled = await cli(['pull', dir, '--root-topic', root], local.env)
  expect(pulled.code, pulled.err).toBe(0)
  return writesDuring(local.server, async () => {
    const push = await cli(['push', dir, '--root-topic', root], local.env)
    expect(push.code, push.err).toBe(0)
  })
}

it('rewrites the links to an article deleted on the web, so the push after the pull writes nothing', async () => {
  const {dir, root, ids} = await pushed()
  await local.client.deleteItem(ids.get('Files')!)
  expect(await pullThenPush(dir, root)).toEqual([])
  const reference = await readFile(path.join(dir, 'hooks/reference.md'), 'utf8')
  expect(reference).not.toContain('../tutorials/files.md')
}, 120_000)

it('moves a file moved on the web under its own name, and the push after the pull writes nothing', async () => {
  const {dir, root, ids} = await pushed()
  await local.client.moveItem(ids.get('Part 5 - Async logic')!, ids.get('Gemini CLI hooks')!)
  expect(await pullThenPush(dir, root)).toEqual([])
  expect((await readdir(path.join(dir, 'hooks'))).sort()).toEqual(['index.md', 'part-5-async.md', 'reference.md'])
  const intro = await readFile(path.join(dir, 'intro.md'), 'utf8')
  expect(intro).toContain('(hooks/part-5-async.md)')
}, 120_000)

it('retitles a topic renamed on the web in the heading its title comes from', async () => {
  const {dir, root, ids} = await pushed()
  await local.client.updateItem(ids.get('Gemini CLI hooks')!, {title: 'Hooks, renamed'})
  expect(await pullThenPush(dir, root)).toEqual([])
  expect(await readFile(path.join(dir, 'hooks/index.md'), 'utf8')).toBe('# Hooks, renamed\n\nHooks are scripts.\n')
}, 120_000)

it('moves a file moved on the web and edited locally, keeping the local edit for the next push', async () => {
  const {dir, root, ids} = await pushed()
  const id = ids.get('Part 5 - Async logic')!
  const file = path.join(dir, 'tutorials/part-5-async.md')
  await writeFile(file, '# Part 5 - Async logic\n\nAwait it.\n\nThen [files](files.md).\n')
  expect((await cli(['push', dir, '--root-topic', root], local.env)).code).toBe(0)
  await local.client.moveItem(id, ids.get('Gemini CLI hooks')!)
  await writeFile(file, '# Part 5 - Async logic\n\nAwait it, locally.\n\nThen [files](files.md).\n')
  const pulled = await cli(['pull', dir, '--root-topic', root], local.env)
  expect(pulled.code, pulled.out + pulled.err).toBe(0)
  expect(await readFile(path.join(dir, 'hooks/part-5-async.md'), 'utf8')).toBe(
    '# Part 5 - Async logic\n\nAwait it, locally.\n\nThen [files](../tutorials/files.md).\n'
  )
  expect(await readdir(path.join(dir, 'tutorials'))).toEqual(['files.md'])
  expect(await readFile(path.join(dir, 'intro.md'), 'utf8')).toContain('(hooks/part-5-async.md)')
  const from = local.server.requestLog().length
  const push = await cli(['push', dir, '--root-topic', root], local.env)
  expect(push.code, push.err).toBe(0)
  const writes = local.server
    .requestLog()
    .slice(from)
    .filter((entry) => entry.write)
  expect(writes.map((entry) => `${entry.method} ${entry.path}`)).toEqual([`PUT /v4/knowledgebase/${id}`])
  const item = await local.client.getItem(id)
  expect(item.parent_topic_id).toBe(ids.get('Gemini CLI hooks'))
  expect(item.body).toContain('Await it, locally.')
}, 120_000)

it('keeps a file moved on the web and edited locally where the move changes the edited block, with a conflict copy', async () => {
  const {dir, root, ids} = await pushed()
  const file = path.join(dir, 'tutorials/part-5-async.md')
  await writeFile(file, '# Part 5 - Async logic\n\nAwait it.\n\nThen [files](files.md).\n')
  expect((await cli(['push', dir, '--root-topic', root], local.env)).code).toBe(0)
  await local.client.moveItem(ids.get('Part 5 - Async logic')!, ids.get('Gemini CLI hooks')!)
  const edited = '# Part 5 - Async logic\n\nAwait it.\n\nThen [the files](files.md), locally.\n'
  await writeFile(file, edited)
  const pulled = await cli(['pull', dir, '--root-topic', root], local.env)
  expect(pulled.code, pulled.out + pulled.err).toBe(3)
  expect(await readFile(path.join(dir, 'hooks/part-5-async.md'), 'utf8')).toBe(edited)
  expect(await readFile(path.join(dir, 'hooks/part-5-async.remote.md'), 'utf8')).toContain('../tutorials/files.md')
}, 120_000)

it('merges a file moved and edited on the web and edited locally in another block', async () => {
  const {dir, root, ids} = await pushed()
  const id = ids.get('Part 5 - Async logic')!
  const file = path.join(dir, 'tutorials/part-5-async.md')
  await writeFile(file, '# Part 5 - Async logic\n\nAwait it.\n\nThen [files](files.md).\n\nThe end.\n')
  expect((await cli(['push', dir, '--root-topic', root], local.env)).code).toBe(0)
  await local.client.moveItem(id, ids.get('Gemini CLI hooks')!)
  // A web save: the platform's body without the title heading it prepends on reads.
  const read = (await local.client.getItem(id)).body ?? ''
  const body = read.replace(/^# .*\n+/, '').replace('The end.', 'The very end.')
  await local.client.updateItem(id, {body})
  await writeFile(file, '# Part 5 - Async logic\n\nAwait it, locally.\n\nThen [files](files.md).\n\nThe end.\n')
  const pulled = await cli(['pull', dir, '--root-topic', root], local.env)
  expect(pulled.code, pulled.out + pulled.err).toBe(0)
  expect(await readFile(path.join(dir, 'hooks/part-5-async.md'), 'utf8')).toBe(
    '# Part 5 - Async logic\n\nAwait it, locally.\n\nThen [files](../tutorials/files.md).\n\nThe very end.\n'
  )
  const push = await cli(['push', dir, '--root-topic', root], local.env)
  expect(push.code, push.err).toBe(0)
  const item = await local.client.getItem(id)
  expect(item.parent_topic_id).toBe(ids.get('Gemini CLI hooks'))
  expect(item.body).toContain('Await it, locally.')
  expect(item.body).toContain('The very end.')
}, 120_000)

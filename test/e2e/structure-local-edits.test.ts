/**
 * Web structure edits on files edited locally at the same time: the local
 * edit is kept (or a conflict the user sees), the web edit too, and the push
 * after the pull writes only the local edit. Each test is one cause found
 * on the corpora or by hand: a file moved on the web whose permissions
 * changed there too was merged where it was, and the next push moved the
 * article back (the web move silently lost).
 */
import {mkdir, readFile, readdir, rename, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, expect, it} from 'vitest'
import {useLocalServer} from './local-server.js'
import {cli, flatten, writesDuring} from './push-helpers.js'
import {temporaryFolders} from '../temp-folders.js'

const local = useLocalServer()
const folders = temporaryFolders('structure-local-edits')
afterAll(() => folders.removeAll())

const page = (title: string, body: string, extra = '') => `---\ntitle: ${title}\n${extra}---\n\n${body}`
// A file that declares permissions: the folder manages them, so every pull reads them.
const guarded = page('X', 'X text.\n', 'permissions:\n  readers: [1002]\n  editors: [1002]\n')

/** Pushes topics `a` and `b` (and `files`); gives the folder, the root and the ids by title. */
async function pushed(
  files: Record<string, string> = {}
): Promise<{dir: string; root: string; ids: Map<string, string>}> {
  const repo = await folders.make()
  await mkdir(path.join(repo, '.git'))
  const dir = path.join(repo, 'docs')
  const all = {
    'a/_index.md': page('A', ''),
    'a/page.md': page('Page', 'First block.\n\nSecond block.\n'),
    'b/_index.md': page('B', ''),
    'b/x.md': guarded,
    ...files
  }
  for (const [file, text] of Object.entries(all)) {
    await mkdir(path.dirname(path.join(dir, file)), {recursive: true})
    await writeFile(path.join(dir, file), text)
  }
  const root = (await local.client.createItem({type: 'topic', title: 'Local edits', parent_topic_id: null})).id
  const push = await cli(['push', dir, '--root-topic', root], local.env)
  expect(push.code, push.err).toBe(0)
  const ids = new Map(
    flatten(await local.client.getTree(root)).map((entry) => [entry.titlePath.split(' / ').pop()!, entry.id])
  )
  return {dir, root, ids}
}

/** Edits the article's second block on the platform (its body without the title heading the platform adds). */
async function editSecondBlockOnTheWeb(id: string): Promise<void> {
  const {body} = await local.client.getItem(id)
  const edited = (body ?? '').replace(/^# .*\n+/, '').replace('Second block.', 'Second block, web.')
  await local.client.updateItem(id, {body: edited})
}

/** Pushes: the write requests it made. */
async function pushWrites(dir: string, root: string): Promise<string[]> {
  return writesDuring(local.server, async () => {
    const push = await cli(['push', dir, '--root-topic', root], local.env)
    expect(push.code, push.err).toBe(0)
  })
}

it('moves a file moved on the web whose permissions changed there, keeping its local edit', async () => {
  const {dir, root, ids} = await pushed()
  const id = ids.get('Page')!
  await local.client.moveItem(id, ids.get('B')!)
  await local.client.setPermissions(id, {readers: [1001], editors: [1001]})
  await writeFile(path.join(dir, 'a/page.md'), page('Page', 'First block, edited locally.\n\nSecond block.\n'))
  const pulled = await cli(['pull', dir, '--root-topic', root], local.env)
  expect(pulled.code, pulled.out + pulled.err).toBe(0)
  expect(await readdir(path.join(dir, 'a'))).toEqual(['_index.md'])
  expect(await readFile(path.join(dir, 'b/page.md'), 'utf8')).toBe(
    page(
      'Page',
      'First block, edited locally.\n\nSecond block.\n',
      'permissions:\n  readers: [1001]\n  editors: [1001]\n'
    )
  )
  expect(await pushWrites(dir, root)).toEqual([`PUT /v4/knowledgebase/${id}`])
  const item = await local.client.getItem(id)
  expect(item.parent_topic_id).toBe(ids.get('B'))
  expect(item.body).toContain('edited locally')
  expect((await local.client.getPermissions(id)).readers.map((reader) => reader.id)).toEqual([1001])
}, 120_000)

it('keeps a title changed here and on the web to another title, as a conflict the user sees', async () => {
  const {dir, root, ids} = await pushed({'a/page.md': '# Page\n\nFirst block.\n\nSecond block.\n'})
  const id = ids.get('Page')!
  await local.client.updateItem(id, {title: 'Page on the web'})
  const edited = '# Page locally\n\nFirst block.\n\nSecond block, local.\n'
  await writeFile(path.join(dir, 'a/page.md'), edited)
  const pulled = await cli(['pull', dir, '--root-topic', root], local.env)
  expect(pulled.code, pulled.out + pulled.err).toBe(3)
  expect(pulled.err).toContain('a/page.remote.md')
  expect(await readFile(path.join(dir, 'a/page.md'), 'utf8')).toBe(edited)
  expect(await readFile(path.join(dir, 'a/page.remote.md'), 'utf8')).toBe(
    '# Page on the web\n\nFirst block.\n\nSecond block.\n'
  )
  expect((await local.client.getItem(id)).title).toBe('Page on the web')
}, 120_000)

it('merges a web edit into a file moved here (git mv), and the next push makes the move', async () => {
  const {dir, root, ids} = await pushed()
  const id = ids.get('Page')!
  await editSecondBlockOnTheWeb(id)
  await rename(path.join(dir, 'a/page.md'), path.join(dir, 'b/page.md'))
  await writeFile(path.join(dir, 'b/page.md'), page('Page', 'First block, local.\n\nSecond block.\n'))
  const pulled = await cli(['pull', dir, '--root-topic', root], local.env)
  expect(pulled.code, pulled.out + pulled.err).toBe(0)
  expect(await readdir(path.join(dir, 'a'))).toEqual(['_index.md'])
  expect(await readFile(path.join(dir, 'b/page.md'), 'utf8')).toBe(
    page('Page', 'First block, local.\n\nSecond block, web.\n')
  )
  expect(pulled.out).toContain(`merged the platform's edits into article b/page.md (${id})`)
  expect(await pushWrites(dir, root)).toEqual([`PUT /v4/knowledgebase/${id}`])
  const item = await local.client.getItem(id)
  expect(item.parent_topic_id).toBe(ids.get('B'))
  expect(item.body).toContain('First block, local.')
  expect(await pushWrites(dir, root)).toEqual([])
}, 120_000)

it('pulls a web edit into a folder renamed here, where the file now is', async () => {
  const {dir, root, ids} = await pushed()
  const id = ids.get('Page')!
  await editSecondBlockOnTheWeb(id)
  await rename(path.join(dir, 'a'), path.join(dir, 'renamed'))
  const pulled = await cli(['pull', dir, '--root-topic', root], local.env)
  expect(pulled.code, pulled.out + pulled.err).toBe(0)
  expect(await readdir(dir)).not.toContain('a')
  expect(await readFile(path.join(dir, 'renamed/page.md'), 'utf8')).toBe(
    page('Page', 'First block.\n\nSecond block, web.\n')
  )
  expect(await pushWrites(dir, root)).toEqual([])
}, 120_000)

it('says so by name when a file moved here was moved elsewhere on the web too', async () => {
  const {dir, root, ids} = await pushed({'c/_index.md': page('C', '')})
  const id = ids.get('Page')!
  await local.client.moveItem(id, ids.get('C')!)
  await rename(path.join(dir, 'a/page.md'), path.join(dir, 'b/page.md'))
  const pulled = await cli(['pull', dir, '--root-topic', root], local.env)
  expect(pulled.code, pulled.out + pulled.err).toBe(0)
  expect(pulled.err).toContain('Moved here (a/page.md -> b/page.md) and on the platform')
  expect(pulled.err).toContain('git mv c/page.md b/page.md')
  expect(await readFile(path.join(dir, 'c/page.md'), 'utf8')).toBe(page('Page', 'First block.\n\nSecond block.\n'))
  expect(await pushWrites(dir, root)).toEqual([])
}, 120_000)

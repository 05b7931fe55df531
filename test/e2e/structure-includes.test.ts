/**
 * A web move of a file another page includes: the pull rewrites the include
 * so it names the file where it moved, and the push after writes nothing.
 * Found on mkdocs-docs (`--8<-- "CONTRIBUTING.md"` in `about/contributing.md`):
 * the move broke the include, and every later push wrote the page without
 * the included text.
 */
import {mkdir, readFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, expect, it} from 'vitest'
import {useLocalServer} from './local-server.js'
import {cli, flatten, writesDuring} from './push-helpers.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

const local = useLocalServer()
const folders = temporaryFolders('structure-includes')
afterAll(() => folders.removeAll())

it('rewrites a snippet that names a file moved on the web, and the push after writes nothing', async () => {
  const repo = await folders.make()
  await mkdir(path.join(repo, '.git'))
  const dir = path.join(repo, 'docs')
  const files: Record<string, string> = {
    'a/_index.md': '---\ntitle: A\n---\n',
    'a/shared.md': '# Shared\n\nShared text.\n',
    'b/_index.md': '---\ntitle: B\n---\n',
    'b/page.md': '# Page\n\nBefore.\n\n--8<-- "docs/a/shared.md"\n'
  }
  await writeFiles(dir, files)
  const root = (await local.client.createItem({type: 'topic', title: 'Includes', parent_topic_id: null})).id
  const push = () => cli(['push', dir, '--root-topic', root], local.env)
  expect((await push()).code).toBe(0)
  const ids = new Map(flatten(await local.client.getTree(root)).map((entry) => [entry.titlePath, entry.id]))
  const pageBody = (await local.client.getItem(ids.get('B / Page')!)).body
  expect(pageBody).toContain('Shared text.')
  await local.client.moveItem(ids.get('A / Shared')!, ids.get('B')!)
  const pulled = await cli(['pull', dir, '--root-topic', root], local.env)
  expect(pulled.code, pulled.out + pulled.err).toBe(0)
  expect(await readFile(path.join(dir, 'b/shared.md'), 'utf8')).toBe(files['a/shared.md'])
  expect(await readFile(path.join(dir, 'b/page.md'), 'utf8')).toBe('# Page\n\nBefore.\n\n--8<-- "docs/b/shared.md"\n')
  expect(await writesDuring(local.server, async () => expect((await push()).code).toBe(0))).toEqual([])
  expect((await local.client.getItem(ids.get('B / Page')!)).body).toBe(pageBody)
}, 120_000)

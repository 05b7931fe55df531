/**
 * A web edit merged into a file that uses images of its own folder (issue
 * 31): the blocks the platform did not change still name the author's
 * images, so the pull leaves no downloaded copy behind (an `_assets/`
 * folder nobody uses would be noise in every pull request of web edits).
 */
import {existsSync} from 'node:fs'
import {mkdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, expect, it} from 'vitest'
import {useLocalServer} from './local-server.js'
import {bodyOf, cli, flatten} from './push-helpers.js'
import {temporaryFolders} from '../temp-folders.js'

const local = useLocalServer()
const folders = temporaryFolders('round-trip-files')
afterAll(() => folders.removeAll())

// The smallest valid PNG: the upload and the download are the same bytes.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64'
)

it('merges a web edit beside an unchanged image without downloading a copy of it', async () => {
  const repo = await folders.make()
  await mkdir(path.join(repo, '.git'))
  const dir = path.join(repo, 'docs')
  await mkdir(path.join(dir, 'guide'), {recursive: true})
  await mkdir(path.join(dir, 'img'), {recursive: true})
  await writeFile(path.join(dir, 'img/shot.png'), png)
  const text = '# Setup\n\nInstall the tool first.\n\n![A screenshot](../img/shot.png)\n\nThen run it once.\n'
  await writeFile(path.join(dir, 'guide/setup.md'), text)
  const root = (await local.client.createItem({type: 'topic', title: 'Files', parent_topic_id: null})).id
  const pushed = await cli(['push', dir, '--root-topic', root], local.env)
  expect(pushed.code, pushed.err).toBe(0)

  const article = flatten(await local.client.getTree(root)).find((entry) => entry.titlePath.endsWith('Setup'))!
  const body = bodyOf(await local.client.getItem(article.id))
  await local.client.updateItem(article.id, {body: body.replace('Then run it once.', 'Then run it twice.')})
  const pulled = await cli(['pull', dir, '--root-topic', root], local.env)
  expect(pulled.code, pulled.err).toBe(0)

  expect(await readFile(path.join(dir, 'guide/setup.md'), 'utf8')).toBe(text.replace('once', 'twice'))
  expect(existsSync(path.join(dir, 'guide/_assets'))).toBe(false)
  expect(pulled.out).not.toContain('_assets')
}, 60_000)

/**
 * Web moves and deletions pulled back as small patches: a document that
 * moved on the platform, and the documents linking to one that moved or
 * went, change only in the lines whose links changed. Written whole, they
 * lost the author's front matter keys, imports and admonition syntax (a
 * Docusaurus page: `id`, `sidebar_label`, `:::tip`).
 */
import {mkdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, expect, it} from 'vitest'
import {useLocalServer} from './local-server.js'
import {cli, flatten} from './push-helpers.js'
import {temporaryFolders} from '../temp-folders.js'
import {changedLines} from './round-trip-words.js'

const local = useLocalServer()
const folders = temporaryFolders('round-trip-moves')
afterAll(() => folders.removeAll())

const page = (id: string, title: string, body: string) =>
  `---\nid: ${id}\ntitle: ${title}\nsidebar_label: ${title} (short)\n---\n\nimport Thing from './thing'\n\n${body}`

const linking = page(
  'overview',
  'Overview',
  ':::tip What you learn\n\nHow the parts fit.\n\n:::\n\nFirst read [the setup](./setup.md) to begin.\n\n' +
    'Some prose that nobody touches.\n\nThen read [the usage](./usage.md) for more.\n'
)
const moving = page('setup', 'Setup', ':::note\n\nInstall it.\n\n:::\n\nSee [the overview](./overview.md) again.\n')

/** Pushes a folder of three linked pages and a second topic; gives the folder, the root and the ids by title. */
async function pushed(): Promise<{dir: string; root: string; ids: Map<string, string>}> {
  const repo = await folders.make()
  await mkdir(path.join(repo, '.git'))
  const dir = path.join(repo, 'docs')
  await mkdir(path.join(dir, 'guide'), {recursive: true})
  await mkdir(path.join(dir, 'other'), {recursive: true})
  await writeFile(path.join(dir, 'guide/overview.md'), linking)
  await writeFile(path.join(dir, 'guide/setup.md'), moving)
  await writeFile(path.join(dir, 'guide/usage.md'), page('usage', 'Usage', 'Use it.\n'))
  await writeFile(path.join(dir, 'other/elsewhere.md'), page('elsewhere', 'Elsewhere', 'Far away.\n'))
  const root = (await local.client.createItem({type: 'topic', title: 'Moves', parent_topic_id: null})).id
  const push = await cli(['push', dir, '--root-topic', root], local.env)
  expect(push.code, push.err).toBe(0)
  const entries = flatten(await local.client.getTree(root))
  const ids = new Map(entries.map((entry) => [entry.titlePath.split(' / ').pop()!.toLowerCase(), entry.id]))
  return {dir, root, ids}
}

it('patches only the link lines of a page whose link targets moved or went on the platform', async () => {
  const {dir, root, ids} = await pushed()
  await local.client.moveItem(ids.get('setup')!, ids.get('other')!)
  await local.client.deleteItem(ids.get('usage')!)
  const pulled = await cli(['pull', dir, '--root-topic', root], local.env)
  expect(pulled.code, pulled.err).toBe(0)

  const overview = await readFile(path.join(dir, 'guide/overview.md'), 'utf8')
  expect(overview.startsWith(linking.slice(0, linking.indexOf('First read')))).toBe(true)
  expect(changedLines(linking, overview)).toBe(2)
  expect(overview).toContain('Some prose that nobody touches.')

  const push = await cli(['push', dir, '--root-topic', root], local.env)
  expect(push.code, push.err).toBe(0)
  expect(push.out).toMatch(/0 (to )?(update|write)|nothing|up to date/i)
}, 120_000)

it('moves a page moved on the platform with its own syntax, patching only its relative links', async () => {
  const {dir, root, ids} = await pushed()
  await local.client.moveItem(ids.get('setup')!, ids.get('other')!)
  const pulled = await cli(['pull', dir, '--root-topic', root], local.env)
  expect(pulled.code, pulled.err).toBe(0)
  const files = await Promise.all(
    ['other/setup.md', 'other/Setup.md'].map((file) => readFile(path.join(dir, file), 'utf8').catch(() => undefined))
  )
  const moved = files.find((text) => text !== undefined)!
  expect(moved).toContain('sidebar_label: Setup (short)')
  expect(moved).toContain(':::note')
  expect(changedLines(moving, moved)).toBe(1)
}, 120_000)

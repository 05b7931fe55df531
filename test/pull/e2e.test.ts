/**
 * End-to-end: `kbsync pull` and `kbsync push` (the CLI, in-process) against
 * the real local server over HTTP, counting the writes the server saw.
 */
import {mkdtemp, readdir, readFile, rename, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {changed, snapshot} from './folder-snapshot.js'
import {KbClient} from '../../src/api/index.js'
import * as dialect from '../../src/dialect/index.js'
import {startServer} from '../../src/server/index.js'
import {toKbText, toKbTree} from '../../src/local/index.js'
import {isPortableName, nameKey} from '../../src/sync/pull/index.js'
import {bodyOf, cli, flatten} from '../e2e/push-helpers.js'

type Server = Awaited<ReturnType<typeof startServer>>

let server: Server
let env: NodeJS.ProcessEnv
let client: KbClient
const folders: string[] = []
const fixtures = path.resolve(import.meta.dirname, '../../fixtures/platform-bodies')

beforeAll(async () => {
  server = await startServer({port: 0})
  env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: server.token}
  client = KbClient.fromEnv(env)
})

afterAll(async () => {
  await client?.close()
  await server?.close()
  for (const dir of folders) await rm(dir, {recursive: true, force: true})
})

async function folder(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-pull-'))
  folders.push(dir)
  return dir
}

function writes(): number {
  return server.counts().writes
}

async function topic(title: string, parent: string | null, body?: string): Promise<string> {
  const item = await client.createItem({type: 'topic', title, parent_topic_id: parent, ...(body ? {body} : {})})
  return item.id
}

async function article(title: string, parent: string | null, body: string): Promise<string> {
  return (await client.createItem({type: 'article', title, parent_topic_id: parent, body})).id
}

async function upload(name: string, bytes: string | Buffer): Promise<string> {
  const dir = await folder()
  const file = path.join(dir, name)
  await writeFile(file, bytes)
  return (await client.uploadFile(file, {name})).guid
}

const png = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201d0a3cb5f0000000049454e44ae426082',
  'hex'
)

describe('kbsync pull end to end', () => {
  let root: string
  const ids: Record<string, string> = {}
  let dir: string

  beforeAll(async () => {
    root = await topic('Pull KB', null)
    ids.guides = await topic(
      'Guides',
      root,
      'Guides cover <u>everything</u>.\n\n<div data-node="hintBlock" data-color="blue">\n\nRead these first.\n\n</div>'
    )
    ids.advanced = await topic('Advanced', ids.guides)
    await client.setPermissions(ids.advanced, {inherit: false, readers: [1001, 1002], editors: [1001]})
    // Inherits, and lets one more person read.
    await client.setPermissions(ids.guides, {inherit: true, readers: [1003], editors: []})
    ids.install = await article(
      'Installation',
      ids.guides,
      'Run `npm install`.\n\n1. one\n2. two\n    - nested\n\n| a | b |\n| --- | --- |\n| 1 | snake\\_case |'
    )
    ids.tuning = await article('Tuning', ids.advanced, 'Turn the knobs.')
    // The platform escapes `_` in the `# <title>` line it puts before a body.
    ids.snake = await article('snake_case rules', ids.guides, 'Names use snake_case.')
    const logo = await upload('logo.png', png)
    const form = await upload('form.csv', 'a,b\n1,2\n')
    ids.welcome = await article(
      'Welcome',
      root,
      [
        'Start with the <a data-node="articleLink" data-article-id="' +
          ids.install +
          '">installation guide</a> or the <a data-node="articleLink" data-topic-id="' +
          ids.guides +
          '">guides</a>.',
        '',
        '## Colours',
        '',
        'Some <mark data-color="yellow">highlighted</mark> and <u>underlined</u> text, **bold**, *italic*, ~~gone~~.',
        '',
        '<div data-node="hintBlock" data-color="blue">',
        '',
        'A note.',
        '',
        '</div>',
        '',
        '<div data-node="hintBlock" data-color="purple">',
        '',
        'A purple block with no alert of its own.',
        '',
        '</div>',
        '',
        `![Logo](${logo})`,
        '',
        '<div data-node="attachmentsGroup">',
        `<a data-node="attachment" href="${form}">form.csv</a>`,
        '</div>',
        '',
        '<details>',
        '<summary>More</summary>',
        '',
        'Hidden text.',
        '',
        '</details>',
        '',
        '### Small heading',
        '',
        '> quoted',
        '',
        '```js',
        'const x = 1',
        '```',
        '',
        'Line one\\',
        'line two <a data-node="anchorLink" data-id="here" />'
      ].join('\n')
    )
    await client.setPermissions(ids.install, {readers: [1001], editors: [1001]})
    dir = await folder()
  })

  it('1. pulls nested topics, bodies, links, files and permissions; a push right after sends no write', async () => {
    const run = await cli(['pull', dir, '--root-topic', root], env)
    expect(run.err).not.toMatch(/error|warning/)
    expect(run.code).toBe(0)
    const files = await snapshot(dir)
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        'Guides/_index.md',
        'Guides/Installation.md',
        'Guides/Advanced/_index.md',
        'Guides/Advanced/_permissions.yml',
        'Guides/Advanced/Tuning.md',
        'Welcome.md'
      ])
    )
    expect(files['Guides/Advanced/_permissions.yml']).toBe('inherit: false\nreaders: [1001, 1002]\neditors: [1001]\n')
    expect(files['Guides/Installation.md']).toContain('permissions:\n  readers: [1001]\n  editors: [1001]\n')
    expect(files['Guides/_permissions.yml']).toBe('inherit: true\nreaders: [1003]\neditors: []\n')
    expect(files['_permissions.yml']).toBeUndefined()
    expect(Object.values(files).filter((text) => text.includes('# snake'))).toEqual([])
    expect(Object.keys(files).filter((name) => name.includes('snake_case rules'))).toHaveLength(1)
    const welcome = files['Welcome.md']!
    expect(welcome).toContain(`kb_id: ${ids.welcome}`)
    expect(welcome).toContain('[installation guide](Guides/Installation.md)')
    expect(welcome).toContain('[guides](Guides/_index.md)')
    expect(welcome).toMatch(/!\[Logo\]\(_assets\/Welcome\/logo\.png\)/)
    expect(welcome).toContain('_assets/Welcome/form.csv')
    // Blue maps to a GitHub alert once the GFM conversion is there; purple has no alert and stays a hint block.
    if ('kbTreeToGfm' in dialect) expect(welcome).toContain('> [!NOTE]')
    else expect(welcome).toContain('<div data-node="hintBlock" data-color="blue">')
    expect(welcome).toContain('data-color="purple"')
    expect(Object.keys(files)).toContain('_assets/Welcome/logo.png')
    expect(Buffer.from(files['_assets/Welcome/logo.png']!, 'latin1').equals(png)).toBe(true)
    const before = writes()
    const push = await cli(['push', dir, '--root-topic', root], env)
    expect(push.code).toBe(0)
    expect(writes() - before).toBe(0)
  })

  it('2. pull, local edit, push: exactly one write, and the remote body is the canonical dialect of the file', async () => {
    const file = path.join(dir, 'Guides/Installation.md')
    const text = await readFile(file, 'utf8')
    await writeFile(file, text + '\nA new paragraph with snake_case.\n')
    const before = writes()
    const push = await cli(['push', dir, '--root-topic', root], env)
    expect(push.code).toBe(0)
    expect(writes() - before).toBe(1)
    const local = (await readFile(file, 'utf8')).replace(/^---\n[\s\S]*?\n---\n\n?/, '')
    expect(local).toContain('A new paragraph with snake_case.')
    const canonical = toKbText(toKbTree(local, 'Guides/Installation.md').tree)
    expect(bodyOf(await client.getItem(ids.install!)).trim()).toBe(canonical.trim())
    expect(canonical).toContain('snake\\_case.')
  })

  it('3. web edit, pull: exactly that file changes; web edit + local edit: conflict, exit 3, both kept', async () => {
    const before = await snapshot(dir)
    server.webEdit(ids.tuning!, {body: 'Tuned on the web.'})
    const run = await cli(['pull', dir, '--root-topic', root], env)
    expect(run.code).toBe(0)
    const after = await snapshot(dir)
    expect(changed(before, after)).toEqual(['Guides/Advanced/Tuning.md'])
    expect(after['Guides/Advanced/Tuning.md']).toContain('Tuned on the web.')

    server.webEdit(ids.tuning!, {body: 'Edited on the web again.'})
    const file = path.join(dir, 'Guides/Advanced/Tuning.md')
    await writeFile(file, (await readFile(file, 'utf8')).replace('Tuned on the web.', 'Edited locally.'))
    const conflict = await cli(['pull', dir, '--root-topic', root], env)
    expect(conflict.code).toBe(3)
    expect(await readFile(file, 'utf8')).toContain('Edited locally.')
    expect(await readFile(path.join(dir, 'Guides/Advanced/Tuning.remote.md'), 'utf8')).toContain(
      'Edited on the web again.'
    )
    const pushed = writes()
    const push = await cli(['push', dir, '--root-topic', root], env)
    expect(push.code).toBe(3)
    expect(writes() - pushed).toBe(0)

    // Taking the platform's version, as docs/pull.md says: move the copy over the file and pull again.
    await rename(path.join(dir, 'Guides/Advanced/Tuning.remote.md'), file)
    const resolved = await cli(['pull', dir, '--root-topic', root], env)
    expect(resolved.err).not.toMatch(/conflict/i)
    expect(resolved.code).toBe(0)
    expect(await readdir(path.join(dir, 'Guides/Advanced'))).not.toContain('Tuning.remote.md')
    expect(await readFile(file, 'utf8')).toContain('Edited on the web again.')
    const settled = writes()
    expect((await cli(['push', dir, '--root-topic', root], env)).code).toBe(0)
    expect(writes() - settled).toBe(0)
  })

  it('4. awkward titles give portable, distinct names; a second pull renames nothing', async () => {
    const titlesRoot = await topic('Titles', null)
    const titles = [
      'a/b',
      'Q: why?',
      '"Quoted"',
      'Trailing dots...',
      'CON',
      'Политика безопасности',
      'Dup',
      'dup',
      'Dup'
    ]
    const made: Array<[string, string]> = []
    for (const title of titles) made.push([await article(title, titlesRoot, `Body of ${title}.`), title])
    await topic('CON', titlesRoot, 'A topic named like a device.')
    // Among the three `dup`s the lowest id keeps the plain name.
    const dups = made.filter(([, title]) => title.toLowerCase() === 'dup').sort(([a], [b]) => (a < b ? -1 : 1))
    const target = await folder()
    const first = await cli(['pull', target, '--root-topic', titlesRoot], env)
    expect(first.code).toBe(0)
    const names = await readdir(target)
    const visible = names.filter((n) => !n.startsWith('.'))
    expect(visible.sort()).toEqual(
      [
        'CON_',
        'CON_.md',
        "'Quoted'.md",
        `${dups[0]![1]}.md`,
        `${dups[1]![1]} (2).md`,
        `${dups[2]![1]} (3).md`,
        'Q - why.md',
        'Trailing dots.md',
        'a-b.md',
        'Политика безопасности.md'
      ].sort()
    )
    expect(await readFile(path.join(target, `${dups[1]![1]} (2).md`), 'utf8')).toContain(`kb_id: ${dups[1]![0]}`)
    for (const name of visible) expect(isPortableName(name)).toBe(true)
    expect(new Set(visible.map(nameKey)).size).toBe(visible.length)
    const before = await snapshot(target)
    const dry = await cli(['pull', target, '--root-topic', titlesRoot, '--dry-run'], env)
    expect(dry.out).toContain('No changes: the folder matches the knowledge base.')
    const json = await cli(['pull', target, '--root-topic', titlesRoot, '--dry-run', '--json'], env)
    expect(JSON.parse(json.out)).toMatchObject({
      schemaVersion: 1,
      ops: [],
      summary: {create: 0, update: 0, conflict: 0}
    })
    const second = await cli(['pull', target, '--root-topic', titlesRoot], env)
    expect(second.code).toBe(0)
    expect(changed(before, await snapshot(target))).toEqual([])
  })

  it('6. a platform deletion inside a folder that moved in the same pull is applied where the file now is', async () => {
    const base = await topic('Moves', null)
    const target = await topic('Target', base)
    const moving = await topic('Moving', base)
    const gone = await article('Gone soon', moving, 'Text.')
    await article('Stays', moving, 'Kept.')
    const wanderer = await article('Wanderer', base, 'Walks.')
    const dir = await folder()
    expect((await cli(['pull', dir, '--root-topic', base], env)).code).toBe(0)
    await client.moveItem(moving, target)
    await client.moveItem(wanderer, target)
    await client.deleteItem(gone)
    const run = await cli(['pull', dir, '--root-topic', base], env)
    expect(run.code, run.err).toBe(0)
    const files = Object.keys(await snapshot(dir))
    expect(files.filter((file) => file.includes('Gone soon'))).toEqual([])
    expect(files).toContain('Target/Moving/Stays.md')
    expect(files).toContain('Target/Wanderer.md')
    // A move of an article without files leaves no empty `_assets` folder behind or at its target.
    const folders = (await readdir(dir, {recursive: true, withFileTypes: true})).filter(
      (entry) => entry.isDirectory() && entry.name === '_assets'
    )
    expect(folders.map((entry) => path.join(entry.parentPath, entry.name))).toEqual([])
    const plan = await cli(['plan', dir, '--root-topic', base], env)
    expect(plan.code, plan.err).toBe(0)
  })

  it('7. deleted on the platform, edited locally: the file is kept, and the run says so by name', async () => {
    const base = await topic('Deleted there', null)
    const doomed = await article('Doomed', base, 'Old text.')
    const dir = await folder()
    expect((await cli(['pull', dir, '--root-topic', base], env)).code).toBe(0)
    await writeFile(
      path.join(dir, 'Doomed.md'),
      (await readFile(path.join(dir, 'Doomed.md'), 'utf8')) + '\nEdited here.\n'
    )
    await client.deleteItem(doomed)
    const run = await cli(['pull', dir, '--root-topic', base], env)
    expect(run.code).toBe(3)
    expect(run.err).toContain('conflict: Doomed.md: deleted on the platform, edited locally')
    expect(run.err).toContain('the next push creates it again as a new article; delete the file to accept the deletion')
    expect(run.out + run.err).toContain('1 conflict;')
    expect(await readFile(path.join(dir, 'Doomed.md'), 'utf8')).toContain('Edited here.')
  })

  it('5. every platform body pulls and pushes back unchanged', async () => {
    const bodiesRoot = await topic('Platform bodies', null)
    const names = (await readdir(fixtures)).filter((n) => n.endsWith('.md')).sort()
    expect(names.length).toBeGreaterThan(0)
    const created: Record<string, string> = {}
    for (const name of names)
      created[name] = await article(
        name.replace(/\.md$/, ''),
        bodiesRoot,
        await readFile(path.join(fixtures, name), 'utf8')
      )
    // Written as the platform would: plain-text URLs and addresses are text, not links; & stays bare.
    created['plain-urls'] = await article(
      'Plain URLs',
      bodiesRoot,
      'See https://example.com/a\\_b, www.example.com or mail team@example.com.\n\nAT&T asks for [the form](https://e.com/?a=1&b=2).\n'
    )
    const remoteBefore = Object.fromEntries(
      await Promise.all(Object.entries(created).map(async ([name, id]) => [name, bodyOf(await client.getItem(id))]))
    )
    const target = await folder()
    const run = await cli(['pull', target, '--root-topic', bodiesRoot], env)
    expect(run.err).not.toMatch(/pull-lossy|pull-not-exact/)
    expect(run.code).toBe(0)
    const before = writes()
    const push = await cli(['push', target, '--root-topic', bodiesRoot], env)
    expect(push.code).toBe(0)
    expect(writes() - before).toBe(0)
    for (const [name, id] of Object.entries(created)) expect(bodyOf(await client.getItem(id))).toBe(remoteBefore[name])
    expect(flatten(await client.getTree(bodiesRoot)).length).toBe(names.length + 1)
  })
})

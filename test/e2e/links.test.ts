/**
 * End-to-end: links as real trees write them, pushed through the CLI to the
 * real local server, and read back from it: every link form, root-relative
 * images from the repository and the site root, links into the repository,
 * broken links as errors or (`--broken-links=warn`) as text, and a page that
 * links to itself, also when a later write fails.
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {provisionalBody, push, type SyncClient} from '../../src/sync/index.js'
import {run} from '../cli/helpers.js'
import {temporaryFolders} from '../temp-folders.js'
import {useLocalServer} from './local-server.js'
import {bodyOf, flatten} from './push-helpers.js'

const local = useLocalServer()
const folders = temporaryFolders('e2e-links')
afterAll(() => folders.removeAll())

/** A git repository (a `.git` folder is all kbsync looks for) holding `files`, by repository-relative path. */
async function repository(files: Record<string, string>): Promise<string> {
  const repo = await folders.make()
  await mkdir(path.join(repo, '.git'))
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(repo, name)), {recursive: true})
    await writeFile(path.join(repo, name), text)
  }
  return repo
}

/** Runs `kbsync <argv>` in `cwd` against the server. */
function kbsync(argv: string[], cwd: string, extra: NodeJS.ProcessEnv = {}) {
  return run(argv, {cwd, env: {...local.env, ...extra}})
}

/** The stored bodies under the topic `root`, by title. */
async function bodiesUnder(root: string): Promise<Record<string, {id: string; body: string}>> {
  const entries = flatten(await local.client.getTree(root))
  const bodies: Record<string, {id: string; body: string}> = {}
  for (const entry of entries)
    bodies[entry.titlePath] = {id: entry.id, body: bodyOf(await local.client.getItem(entry.id))}
  return bodies
}

const png = (seed: number) => Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, seed])

describe('links as real trees write them', () => {
  it('resolves every form, uploads root-relative images from the repository and the site root, links repository files to repoUrl', async () => {
    const repo = await repository({
      'kbsync.config.json': JSON.stringify({
        dir: 'docs',
        siteRoot: 'static',
        repoUrl: 'https://github.com/org/repo/blob/main/'
      }),
      'CONTRIBUTING.md': '# Contributing\n',
      'docs/intro.md': [
        '# Intro',
        '',
        'Page [html](guide/setup.html#step-2), [extensionless](guide/setup), [query](guide/setup.md?plain=1).',
        '',
        'Folder [guide](guide/), doc id [boilerplate](/usage/boilerplate), slug [questions](/questions), permalink [variables](/docs/variables/).',
        '',
        'Repository [contributing](../CONTRIBUTING.md#rules).',
        '',
        '![logo](/img/logo.png)',
        '',
        '![diagram](/docs/assets/diagram.png)',
        ''
      ].join('\n'),
      'docs/guide/setup.md': '# Setup\n\nSteps.\n',
      'docs/usage/ReducingBoilerplate.md': '---\nid: boilerplate\n---\n\n# Boilerplate\n\nLess.\n',
      'docs/faq.md': '---\nslug: /questions\n---\n\n# FAQ\n\nAnswers.\n',
      'docs/variables.md': '---\ntitle: Variables\npermalink: /docs/variables/\n---\n\nSome.\n',
      'docs/assets/diagram.png': png(1).toString('latin1'),
      'static/img/logo.png': png(2).toString('latin1')
    })
    const root = (await local.client.createItem({type: 'topic', title: 'Forms', parent_topic_id: null})).id
    const pushed = await kbsync(['push', '--root-topic', root], repo)
    expect(pushed.err).not.toMatch(/error/)
    expect(pushed.code).toBe(0)
    const bodies = await bodiesUnder(root)
    const intro = bodies.Intro!.body
    const link = (title: string, text: string) =>
      `<a data-node="articleLink" data-article-id="${bodies[title]!.id}">${text}</a>`
    expect(intro).toContain(link('guide / Setup', 'html'))
    expect(intro).toContain(link('guide / Setup', 'extensionless'))
    expect(intro).toContain(link('guide / Setup', 'query'))
    expect(intro).toContain(`<a data-node="articleLink" data-topic-id="${bodies.guide!.id}">guide</a>`)
    expect(intro).toContain(link('usage / Boilerplate', 'boilerplate'))
    expect(intro).toContain(link('FAQ', 'questions'))
    expect(intro).toContain(link('Variables', 'variables'))
    expect(intro).toContain('[contributing](https://github.com/org/repo/blob/main/CONTRIBUTING.md#rules)')
    // Both images uploaded: the body holds file URLs, not the paths written.
    expect(intro.match(/!\[(?:logo|diagram)\]\(\S+services\/kb\?Id=[\w-]+\)/g)).toHaveLength(2)
    expect(intro).not.toMatch(/\]\((?:\/|\.\.|guide)/)
    const again = local.server.counts().writes
    expect((await kbsync(['push', '--root-topic', root], repo)).code).toBe(0)
    expect(local.server.counts().writes).toBe(again)
  })

  it('stops at a broken link or image (nothing written); --broken-links=warn publishes their text; a link out of the folder is text without repoUrl', async () => {
    const repo = await repository({
      'CONTRIBUTING.md': '# Contributing\n',
      'docs/page.md':
        '# Page\n\nSee [gone](gone.md) and [contributing](../CONTRIBUTING.md).\n\n![lost `<Diagram>` capture](img/lost.png)\n'
    })
    const docs = path.join(repo, 'docs')
    const root = (await local.client.createItem({type: 'topic', title: 'Broken', parent_topic_id: null})).id
    const before = local.server.counts().writes
    const strict = await kbsync(['push', docs, '--root-topic', root], repo)
    expect(strict.code).toBe(2)
    expect(strict.err).toContain('page.md:3')
    expect(strict.err).toContain('missing-link-target')
    expect(strict.err).toContain('page.md:5')
    expect(strict.err).toContain('asset-missing')
    expect(local.server.counts().writes).toBe(before)
    expect((await kbsync(['plan', docs, '--root-topic', root], repo, {KBSYNC_BROKEN_LINKS: 'warn'})).code).toBe(0)
    const lenient = await kbsync(['push', docs, '--root-topic', root, '--broken-links=warn', '--verbose'], repo)
    expect(lenient.code).toBe(0)
    expect(lenient.err).toMatch(/page\.md:3:\d+: warning: Link `\.\.\/CONTRIBUTING\.md` points outside the folder/)
    expect(lenient.err).toMatch(/page\.md:5:\d+: warning: Image `img\/lost\.png` not found/)
    await expect(bodiesUnder(root)).resolves.toEqual({
      Page: {id: expect.any(String), body: 'See gone and contributing.\n\nlost `<Diagram>` capture\n'}
    })
    const bad = await kbsync(['plan', docs, '--broken-links=maybe'], repo)
    expect(bad.code).toBe(2)
    expect(bad.err).toContain('--broken-links must be one of "error", "warn", not "maybe"')
  })
})

describe('the link keys of the configuration', () => {
  it.each([
    [{brokenLinks: 'sometimes'}, 'key "brokenLinks" must be one of "error", "warn", not "sometimes"'],
    [{repoUrl: 'github.com/org/repo'}, 'key "repoUrl" must be an http(s) URL'],
    [{siteRoot: 'static'}, 'is not a folder (check "siteRoot" in the config file or KBSYNC_SITE_ROOT)']
  ])('refuses %j with a message naming the key (exit 2)', async (keys, message) => {
    const repo = await repository({
      'kbsync.config.json': JSON.stringify({dir: 'docs', ...keys}),
      'docs/page.md': '# Page\n\ntext\n'
    })
    const planned = await kbsync(['plan'], repo)
    expect(planned.code).toBe(2)
    expect(planned.err).toContain(message)
  })
})

describe('a page that links to itself', () => {
  const files = {'a.md': '# A\n\nSee [part](a.md#part) and [all of it](a.md).\n', 'b.md': '# B\n\n[a](a.md#part)\n'}

  it('is created on the first push with a link to its own id, and a second push writes nothing', async () => {
    const dir = await repository(files)
    const root = (await local.client.createItem({type: 'topic', title: 'Self', parent_topic_id: null})).id
    const first = await kbsync(['push', dir, '--root-topic', root], dir)
    expect(first.err).not.toMatch(/error|failed/)
    expect(first.code).toBe(0)
    const bodies = await bodiesUnder(root)
    const a = bodies.A!
    expect(a.body).toBe(
      `See <a data-node="articleLink" data-article-id="${a.id}">part</a> and <a data-node="articleLink" data-article-id="${a.id}">all of it</a>.\n`
    )
    expect(bodies.B!.body).toBe(`<a data-node="articleLink" data-article-id="${a.id}">a</a>\n`)
    const writes = local.server.counts().writes
    expect((await kbsync(['push', dir, '--root-topic', root], dir)).code).toBe(0)
    expect(local.server.counts().writes).toBe(writes)
  })

  it('never leaves a placeholder when a later write fails (itself, or a link cycle), and the next push completes it', async () => {
    const dir = await repository({...files, 'c.md': '# C\n\nTo [d](d.md).\n', 'd.md': '# D\n\nTo [c](c.md).\n'})
    const root = (await local.client.createItem({type: 'topic', title: 'Self failing', parent_topic_id: null})).id
    // Every update fails, and so does the create of D: A's whole body and the cycle C <-> D cannot be finished.
    const failing: SyncClient = {
      getItem: (id) => local.client.getItem(id),
      createItem: async (input) =>
        input.title === 'D' ? Promise.reject(new Error('injected: create refused')) : local.client.createItem(input),
      updateItem: async () => Promise.reject(new Error('injected: update refused')),
      deleteItem: (id, options) => local.client.deleteItem(id, options),
      getTree: (id) => local.client.getTree(id),
      getPermissions: (id) => local.client.getPermissions(id),
      setPermissions: (id, input) => local.client.setPermissions(id, input),
      uploadFile: (file, options) => local.client.uploadFile(file, options)
    }
    const failed = await push({dir, client: failing, rootTopicId: root})
    expect(failed.status).toBe('failed')
    const stored = await bodiesUnder(root)
    expect(Object.keys(stored).sort()).toEqual(['A', 'B', 'C'])
    for (const {body} of Object.values(stored)) expect(body).not.toContain(provisionalBody)
    expect(stored.A!.body).toBe('See part and all of it.\n')
    expect(stored.C!.body).toBe('To d.\n')
    const fixed = await push({dir, client: local.client, rootTopicId: root})
    expect(fixed.status).toBe('ok')
    const after = await bodiesUnder(root)
    expect(after.A!.body).toContain(`data-article-id="${after.A!.id}">part</a>`)
    expect(after.C!.body).toBe(`To <a data-node="articleLink" data-article-id="${after.D!.id}">d</a>.\n`)
    expect(after.D!.body).toBe(`To <a data-node="articleLink" data-article-id="${after.C!.id}">c</a>.\n`)
  })
})

/**
 * End-to-end: the notice and the lock (issue 33) through the CLI against
 * the real local server. The notice opens every published article (with a
 * link to its file when `repoUrl` is set), never reaches a file on pull,
 * costs no write on the next push and goes when turned off; the lock makes
 * the publishing account the only editor, loses to a permission file that
 * names editors (with a warning), and pull writes no permissions for it.
 */
import {existsSync} from 'node:fs'
import {cp, mkdir, readFile, readdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {useLocalServer} from './local-server.js'
import {bodyOf, cli, copyFixture, flatten} from './push-helpers.js'
import {temporaryFolders} from '../temp-folders.js'
import {withoutNotice} from '../../src/sync/shared/notice.js'

const local = useLocalServer()
const folders = temporaryFolders('notice')
afterAll(() => folders.removeAll())

/** A copy of `fixtures/trees/basic` inside a repository of its own, as `docs/`. */
async function basicRepository(): Promise<{repo: string; dir: string}> {
  const repo = await folders.make()
  await mkdir(path.join(repo, '.git'))
  const dir = path.join(repo, 'docs')
  await cp(await copyFixture('fixtures/trees/basic'), dir, {recursive: true})
  return {repo, dir}
}

async function rootTopic(title: string): Promise<string> {
  return (await local.client.createItem({type: 'topic', title, parent_topic_id: null})).id
}

/** Every article under `root` with its stored body. */
async function articles(root: string): Promise<Array<{id: string; title: string; body: string}>> {
  const found = flatten(await local.client.getTree(root)).filter((entry) => entry.type === 'article')
  return Promise.all(
    found.map(async (entry) => ({
      id: entry.id,
      title: entry.titlePath,
      body: bodyOf(await local.client.getItem(entry.id))
    }))
  )
}

/** Every Markdown file of `dir` and its text. */
async function markdownFiles(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {}
  for (const name of await readdir(dir, {recursive: true})) {
    if (!name.endsWith('.md') || name.includes('.kbsync')) continue
    files[name] = await readFile(path.join(dir, name), 'utf8')
  }
  return files
}

describe('notice', () => {
  it('opens every article with a link to its file; pull leaves it out; a second push writes nothing; off removes it', async () => {
    const {dir} = await basicRepository()
    const root = await rootTopic('Notice')
    const env = {
      ...local.env,
      KBSYNC_NOTICE: 'true',
      KBSYNC_REPO_URL: 'https://github.com/org/repo/blob/main/',
      KBSYNC_BROKEN_LINKS: 'warn'
    }
    const args = ['push', dir, '--root-topic', root]
    const first = await cli(args, env)
    expect(first.code, first.err).toBe(0)
    const published = await articles(root)
    expect(published.length).toBeGreaterThan(2)
    for (const article of published) {
      expect(article.body.startsWith('<div data-node="hintBlock" data-color="gray">'), article.title).toBe(true)
      expect(article.body).toContain('This page is published from git; edit it there.')
      expect(withoutNotice(article.body)).not.toContain('kbsync-notice')
    }
    const install = published.find((article) => article.title.endsWith('Installation'))!
    expect(install.body).toContain('(https://github.com/org/repo/blob/main/docs/guides/install.md)')

    local.server.resetLog()
    expect((await cli(args, env)).code).toBe(0)
    expect(local.server.counts().writes).toBe(0)

    const before = await markdownFiles(dir)
    local.server.webEdit(install.id, {body: install.body.replace('Install the tool', 'Install the app')})
    const pulled = await cli(['pull', dir, '--root-topic', root], env)
    expect(pulled.code, pulled.err).toBe(0)
    const after = await markdownFiles(dir)
    for (const text of Object.values(after)) {
      expect(text).not.toContain('kbsync-notice')
      expect(text).not.toContain('published from git')
    }
    expect(after['guides/install.md']).toContain('Install the app')
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort())
    local.server.resetLog()
    const again = await cli(args, env)
    expect(again.code, again.err).toBe(0)
    expect(local.server.counts().writes).toBe(0)

    const off = await cli(args, {...env, KBSYNC_NOTICE: 'false'})
    expect(off.code, off.err).toBe(0)
    for (const article of await articles(root)) expect(article.body).not.toContain('kbsync-notice')
  })

  it('takes a text of its own', async () => {
    const {dir} = await basicRepository()
    const root = await rootTopic('Own notice')
    const env = {...local.env, KBSYNC_NOTICE: 'Generated from the handbook repository.', KBSYNC_BROKEN_LINKS: 'warn'}
    expect((await cli(['push', dir, '--root-topic', root], env)).code).toBe(0)
    for (const article of await articles(root)) {
      expect(article.body).toContain('Generated from the handbook repository.')
      expect(article.body.split('</div>')[0]).not.toContain('](http')
    }
  })
})

describe('lock', () => {
  it('makes the publishing account the only editor; a second push and a pull write nothing for it', async () => {
    const {dir} = await basicRepository()
    const root = await rootTopic('Locked')
    const env = {...local.env, KBSYNC_LOCK: 'true', KBSYNC_BROKEN_LINKS: 'warn'}
    const first = await cli(['push', dir, '--root-topic', root], env)
    expect(first.code, first.err).toBe(0)
    // The first push learns the account from its writes' answers, and locks at its end.
    expect(first.err).toContain('lock-pending')
    const entries = flatten(await local.client.getTree(root))
    const faq = entries.find((entry) => entry.titlePath === 'Frequently asked questions')!
    const guides = entries.find((entry) => entry.titlePath === 'Guides')!
    expect((await local.client.getPermissions(faq.id)).editors.map((person) => person.id)).toEqual([1])
    expect((await local.client.getPermissions(guides.id)).editors.map((person) => person.id)).not.toEqual([1])

    local.server.resetLog()
    const again = await cli(['push', dir, '--root-topic', root], env)
    expect(again.code, again.err).toBe(0)
    expect(local.server.counts().writes).toBe(0)
    // guides/_permissions.yml names editors: it wins there, with a warning.
    expect(again.err).toContain('lock-overridden')

    // A web edit pulled back: the file takes the edit, not the lock (the folder manages permissions: guides/).
    const before = await markdownFiles(dir)
    const faqBody = bodyOf(await local.client.getItem(faq.id))
    local.server.webEdit(faq.id, {body: faqBody.replace('work address', 'office address')})
    const pulled = await cli(['pull', dir, '--root-topic', root], env)
    expect(pulled.code, pulled.err).toBe(0)
    const after = await markdownFiles(dir)
    expect(after['faq.md']).toContain('office address')
    expect(after['faq.md']).not.toMatch(/permissions|editors/)
    expect({...after, 'faq.md': ''}).toEqual({...before, 'faq.md': ''})
    expect(existsSync(path.join(dir, '_permissions.yml'))).toBe(false)
    local.server.resetLog()
    const third = await cli(['push', dir, '--root-topic', root], env)
    expect(third.code, third.err).toBe(0)
    expect(local.server.counts().writes).toBe(0)
  })

  it('learns the account from the state once known: a new file is created locked in the same push', async () => {
    const {dir} = await basicRepository()
    const root = await rootTopic('Locked later')
    const env = {...local.env, KBSYNC_BROKEN_LINKS: 'warn'}
    expect((await cli(['push', dir, '--root-topic', root], env)).code).toBe(0)
    await writeFile(path.join(dir, 'news.md'), '# News\n\nFresh.\n')
    const locked = await cli(['push', dir, '--root-topic', root], {...env, KBSYNC_LOCK: 'true'})
    expect(locked.code, locked.err).toBe(0)
    const news = flatten(await local.client.getTree(root)).find((entry) => entry.titlePath === 'News')!
    expect((await local.client.getPermissions(news.id)).editors.map((person) => person.id)).toEqual([1])
    await writeFile(path.join(dir, 'later.md'), '# Later\n\nAfter.\n')
    local.server.resetLog()
    expect((await cli(['push', dir, '--root-topic', root], {...env, KBSYNC_LOCK: 'true'})).code).toBe(0)
    const later = flatten(await local.client.getTree(root)).find((entry) => entry.titlePath === 'Later')!
    expect((await local.client.getPermissions(later.id)).editors.map((person) => person.id)).toEqual([1])
  })
})

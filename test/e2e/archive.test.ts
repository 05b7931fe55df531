/**
 * End-to-end: `--on-orphan archive` (issue 33) through the CLI against the
 * real local server, on a copy of a real docs tree (MkDocs): what left the
 * folder is moved under the archive topic with its content, nothing is
 * deleted, a second run writes nothing, and status and pull leave the
 * archive alone; the guards of prune hold.
 */
import {existsSync} from 'node:fs'
import {cp, mkdir, readdir, rm, unlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {copyTree, corpus, ownSites} from './docs-sites.js'
import {useLocalServer} from './local-server.js'
import {bodyOf, cli, copyFixture, flatten} from './push-helpers.js'
import {temporaryFolders} from '../temp-folders.js'

/** Our MkDocs site and the real one (when there), each with the title of a page of its `dev-guide/`. */
const mkdocsTrees = [
  {tree: ownSites.mkdocs, page: 'Quarry Exporters'},
  ...[corpus('mkdocs-docs', '.')].filter((tree) => tree !== undefined).map((tree) => ({tree, page: 'MkDocs Plugins'}))
]

const local = useLocalServer()
const folders = temporaryFolders('archive')
afterAll(() => folders.removeAll())

/** A fresh topic at the knowledge-base root for one test to push under. */
async function rootTopic(title: string): Promise<string> {
  return (await local.client.createItem({type: 'topic', title, parent_topic_id: null})).id
}

/** Requests the server saw since the last reset, as `METHOD path` without the query. */
function requests(): string[] {
  return local.server
    .requestLog()
    .map((entry: {method: string; path: string}) => `${entry.method} ${entry.path.replace(/\?.*$/, '')}`)
}

/** Every item under `root`, by title path. */
async function remoteTree(root: string) {
  return flatten(await local.client.getTree(root))
}

/** A copy of `fixtures/trees/basic`, removed after the file's tests. */
async function basicTree(): Promise<string> {
  const dir = await folders.make()
  await cp(await copyFixture('fixtures/trees/basic'), dir, {recursive: true})
  return dir
}

describe.each(mkdocsTrees.map((entry) => [entry.tree.name, entry] as const))(
  '--on-orphan archive on an MkDocs tree (%s)',
  (_, {tree, page}) => {
    it('moves what left the folder under Archive with its content, deletes nothing; a second run writes nothing', async () => {
      const repo = await copyTree(tree, await folders.make())
      const root = await rootTopic('MkDocs')
      const args = ['push', repo, '--root-topic', root, '--broken-links=warn', '--on-orphan', 'archive']
      const first = await cli(args, local.env)
      expect(first.code, first.err).toBe(0)
      const before = await remoteTree(root)
      // Nothing to archive yet: no archive topic either.
      expect(before.some((entry) => entry.titlePath === 'Archive')).toBe(false)
      const find = (titlePath: string) => before.find((entry) => entry.titlePath === titlePath)!
      const license = find('docs / About / License')
      const plugins = find(`docs / dev-guide / ${page}`)
      const guide = find('docs / dev-guide')
      const guideIndex = find('docs / Developer Guide')
      const pluginsBody = bodyOf(await local.client.getItem(plugins.id))

      await rm(path.join(repo, 'docs/dev-guide'), {recursive: true})
      await unlink(path.join(repo, 'docs/about/license.md'))
      local.server.resetLog()
      const archived = await cli([...args, '--json'], local.env)
      expect(archived.code, archived.err).toBe(0)
      expect(requests().filter((request) => request.startsWith('DELETE'))).toEqual([])
      const result = JSON.parse(archived.out) as {done: Array<{op: string; remoteId?: string}>}
      // The topic moves with what it holds: one move for it, one for each article.
      expect(
        result.done
          .filter((op) => op.op === 'archive')
          .map((op) => op.remoteId)
          .sort()
      ).toEqual([guide.id, guideIndex.id, license.id].sort())
      const after = await remoteTree(root)
      const archive = after.find((entry) => entry.titlePath === 'Archive')!
      expect(archive.type).toBe('topic')
      expect(after.find((entry) => entry.id === license.id)!.titlePath).toBe('Archive / License')
      expect(after.find((entry) => entry.id === plugins.id)!.titlePath).toBe(`Archive / dev-guide / ${page}`)
      expect(bodyOf(await local.client.getItem(plugins.id))).toBe(pluginsBody)
      expect(after).toHaveLength(before.length + 1)

      local.server.resetLog()
      const again = await cli(args, local.env)
      expect(again.code, again.err).toBe(0)
      expect(local.server.counts().writes).toBe(0)
      expect(again.out + again.err).not.toContain('not in the folder')
      const status = await cli(['status', repo, '--root-topic', root, '--on-orphan', 'archive', '--json'], local.env)
      const report = JSON.parse(status.out) as {remote: unknown[]; local: unknown[]}
      expect(report.remote).toEqual([])
      expect(report.local).toEqual([])
    })
  }
)

describe('--on-orphan archive', () => {
  it('pull leaves the archive on the platform: no folder for it, no file deleted for what moved there', async () => {
    const dir = await basicTree()
    const root = await rootTopic('Pulled')
    const env = {...local.env, KBSYNC_ON_ORPHAN: 'archive', KBSYNC_BROKEN_LINKS: 'warn'}
    expect((await cli(['push', dir, '--root-topic', root], env)).code).toBe(0)
    await unlink(path.join(dir, 'faq.md'))
    const archived = await cli(['push', dir, '--root-topic', root], env)
    expect(archived.code, archived.err).toBe(0)
    expect((await remoteTree(root)).map((entry) => entry.titlePath)).toContain('Archive / Frequently asked questions')
    const pulled = await cli(['pull', dir, '--root-topic', root], env)
    expect(pulled.code, pulled.err).toBe(0)
    expect(await readdir(dir)).not.toContain('Archive')
    expect(existsSync(path.join(dir, 'faq.md'))).toBe(false)
    const status = await cli(['status', dir, '--root-topic', root, '--json'], env)
    expect(JSON.parse(status.out).clean).toBe(true)
  })

  it('keeps the guards of prune: an empty folder archives nothing, more than --max-deletions need --yes, web items stay', async () => {
    const dir = await basicTree()
    const root = await rootTopic('Guards')
    const env = {...local.env, KBSYNC_ON_ORPHAN: 'archive', KBSYNC_MAX_DELETIONS: '1', KBSYNC_BROKEN_LINKS: 'warn'}
    expect((await cli(['push', dir, '--root-topic', root], env)).code).toBe(0)
    const web = await local.client.createItem({type: 'article', title: 'Web', parent_topic_id: root, body: 'Mine.'})
    const empty = await folders.make()
    await cp(path.join(dir, '.kbsync'), path.join(empty, '.kbsync'), {recursive: true})
    local.server.resetLog()
    const none = await cli(['push', empty, '--root-topic', root], env)
    expect(none.err).toContain('nothing is archived')
    expect(local.server.counts().writes).toBe(0)

    await unlink(path.join(dir, 'faq.md'))
    await unlink(path.join(dir, 'welcome.md'))
    local.server.resetLog()
    const refused = await cli(['push', dir, '--root-topic', root], env)
    expect(refused.code).toBe(2)
    expect(refused.err).toContain('--yes')
    expect(local.server.counts().writes).toBe(0)
    const confirmed = await cli(['push', dir, '--root-topic', root, '--yes'], env)
    expect(confirmed.code, confirmed.err).toBe(0)
    const tree = await remoteTree(root)
    expect(tree.find((entry) => entry.id === web.id)!.titlePath).toBe('Web')
    expect(tree.map((entry) => entry.titlePath)).toEqual(
      expect.arrayContaining(['Archive / Frequently asked questions', 'Archive / Welcome'])
    )
  })

  it('refuses a folder titled like the archive topic, and --prune with another --on-orphan', async () => {
    const dir = await basicTree()
    const root = await rootTopic('Taken')
    await mkdir(path.join(dir, 'archive'))
    await writeFile(path.join(dir, 'archive/old.md'), '# Old\n\nGone.\n')
    local.server.resetLog()
    const taken = await cli(['push', dir, '--root-topic', root, '--on-orphan', 'archive'], local.env)
    expect(taken.code).toBe(2)
    expect(taken.err).toContain('archive-topic-taken')
    expect(local.server.counts().writes).toBe(0)
    const both = await cli(['push', dir, '--root-topic', root, '--prune', '--on-orphan', 'archive'], local.env)
    expect(both.code).toBe(2)
    expect(both.err).toContain('--on-orphan delete is --prune')
  })
})

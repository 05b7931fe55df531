/**
 * `status` tells the truth (issue 31): in a folder with a broken link it
 * still lists the web edits waiting and the local edits, per file, and exits
 * as push would (2 while push refuses the folder, 0 with
 * `--broken-links=warn`); a pull of a tree pushed with `--broken-links=warn`
 * says "push will refuse this" only where push would (in the documents it
 * pulls: it parses no other body, issue 32); a refused pull exits 2.
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {temporaryFolders, writeFiles} from '../temp-folders.js'
import {useLocalServer} from './local-server.js'
import {cli, edit, flatten} from './push-helpers.js'

const local = useLocalServer()
const temporary = temporaryFolders('status-truth')
afterAll(() => temporary.removeAll())

const tree = {
  'broken.md': '---\ntitle: Broken\n---\n\nSee [the missing page](missing.md) for more.\n',
  'web-one.md': '---\ntitle: Web one\n---\n\nThe first page edited on the web.\n',
  'web-two.md': '---\ntitle: Web two\n---\n\nThe second page edited on the web.\n',
  'mine.md': '---\ntitle: Mine\n---\n\nA page edited here.\n'
}

describe('status and pull in a folder with a broken link', () => {
  let dir: string
  let root: string
  beforeAll(async () => {
    dir = await temporary.make()
    await writeFiles(dir, tree)
    root = (await local.client.createItem({type: 'topic', title: 'Status truth', parent_topic_id: null})).id
    const pushed = await cli(['push', dir, '--root-topic', root, '--broken-links=warn'], local.env)
    expect(pushed.code, pushed.err).toBe(0)
    const items = flatten(await local.client.getTree(root))
    for (const title of ['Web one', 'Web two']) {
      const id = items.find((item) => item.titlePath === title)!.id
      local.server.webEdit(id, {body: `Edited on the web: ${title}.`})
    }
    await edit(path.join(dir, 'mine.md'), 'edited here', 'edited here, twice')
  })

  it('lists the web edits and the local edit, and exits 2 while push refuses the folder', async () => {
    const result = await cli(['status', dir, '--root-topic', root], local.env)
    expect(result.code).toBe(2)
    expect(result.out).not.toContain('Up to date')
    const platform = result.out.slice(result.out.indexOf('Changes on the platform'))
    expect(platform).toMatch(/web-one\.md/)
    expect(platform).toMatch(/web-two\.md/)
    expect(result.out.slice(0, result.out.indexOf('Changes on the platform'))).toMatch(/modified\s+article\s+mine\.md/)
    expect(result.out).toContain('1 local, 2 remote, 0 conflicts; push refuses this folder')
    expect(result.err).toMatch(/broken\.md/)
  })

  it('takes --broken-links like push: the same lists, exit 0', async () => {
    const result = await cli(['status', dir, '--root-topic', root, '--broken-links=warn', '--json'], local.env)
    expect(result.code, result.err).toBe(0)
    const report = JSON.parse(result.out) as {
      blocked: boolean
      counts: Record<string, number>
      remote: Array<{path: string; change: string}>
      local: Array<{path: string; change: string}>
    }
    expect(report.blocked).toBe(false)
    expect(report.counts).toEqual({local: 1, remote: 2, conflicts: 0})
    expect(report.remote.map((e) => `${e.change} ${e.path}`).sort()).toEqual(['edited web-one.md', 'edited web-two.md'])
    expect(report.local.map((e) => `${e.change} ${e.path}`)).toEqual(['modified mine.md'])
  })

  it('pulls the web edits without "push will refuse this" when push would not refuse', async () => {
    const flag = await cli(['pull', dir, '--root-topic', root, '--broken-links=warn'], local.env)
    expect(flag.code, flag.err).toBe(0)
    expect(flag.err).not.toContain('push will refuse this')
    expect(await readFile(path.join(dir, 'web-one.md'), 'utf8')).toContain('Edited on the web')
    // The same from the configuration.
    const configured = await cli(['pull', dir, '--root-topic', root], {...local.env, KBSYNC_BROKEN_LINKS: 'warn'})
    expect(configured.code, configured.err).toBe(0)
    expect(configured.err).not.toContain('push will refuse this')
    // Where push would refuse a document the pull writes, pull says so (it parses only what it pulled: issue 32):
    // retitled on the web, the file is written again, and keeps its broken link.
    const broken = flatten(await local.client.getTree(root)).find((item) => item.titlePath === 'Broken')!.id
    local.server.webEdit(broken, {title: 'Broken, retitled'})
    const strict = await cli(['pull', dir, '--root-topic', root, '--broken-links=error'], local.env)
    expect(strict.code, strict.err).toBe(0)
    expect(strict.err).toContain('push will refuse this')
  })
})

describe('a refused pull', () => {
  it('exits 2 (invalid input, nothing written), never 1 (a runtime failure)', async () => {
    const dir = await temporary.make()
    await writeFiles(dir, {
      'SUMMARY.md': '# Summary\n\n- [Intro](intro.md)\n',
      'intro.md': '# Intro\n\nText.\n'
    })
    const root = (await local.client.createItem({type: 'topic', title: 'Refused', parent_topic_id: null})).id
    await local.client.createItem({type: 'article', title: 'Other', parent_topic_id: root, body: 'Text.'})
    const result = await cli(['pull', dir, '--root-topic', root, '--json'], local.env)
    // Pull may learn to pull this layout (then 0); refusing it is invalid input, not a failure.
    expect(result.code, result.err).not.toBe(1)
    if (result.code === 2) expect(JSON.parse(result.out)).toMatchObject({status: 'error', exitCode: 2})
    else expect(result.code).toBe(0)
  })
})

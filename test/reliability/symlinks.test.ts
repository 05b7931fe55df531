/**
 * Every file kbsync writes stays inside the folder, whatever the folder
 * holds: symbolic links planted in a cloned repository (a topic folder,
 * `_assets`, `.kbsync`, a folder halfway down, a `name.remote.md`) are
 * never written through. Pull refuses the whole plan before any write, with
 * an error naming the link; push refuses the write that would go through it.
 * End to end: the real HTTP client against the real local server.
 */
import {mkdir, readdir, readFile, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {run} from '../cli/helpers.js'
import {push} from '../../src/sync/index.js'
import {pull} from '../../src/sync/pull/index.js'
import {snapshot} from '../pull/folder-snapshot.js'
import {folderAndOutside} from '../folder-beside.js'
import {useLocalServer} from '../e2e/local-server.js'
import {temporaryFolders} from '../temp-folders.js'

const local = useLocalServer()
const folders = temporaryFolders('symlinks')

afterAll(() => folders.removeAll())

const place = () => folderAndOutside(folders)

/** Every entry under `folder` (dot-entries included), sorted. */
async function entries(folder: string): Promise<string[]> {
  return (await readdir(folder, {recursive: true})).map((entry) => entry.split(path.sep).join('/')).sort()
}

/** A root topic of its own for one test, with a topic `Guide` holding the article `Intro`. */
async function guideTree(): Promise<{root: string; guide: string}> {
  const root = (await local.client.createItem({type: 'topic', title: `Root ${Math.random()}`, parent_topic_id: null}))
    .id
  const guide = (await local.client.createItem({type: 'topic', title: 'Guide', parent_topic_id: root})).id
  await local.client.createItem({type: 'article', title: 'Intro', parent_topic_id: guide, body: 'Start here.'})
  return {root, guide}
}

/** Pulls `dir` and expects the whole pull refused, naming `link`, with nothing written in the folder or outside it. */
async function expectPullRefused(dir: string, outside: string, root: string, link: string): Promise<void> {
  const before = await entries(dir)
  const files = await snapshot(dir)
  const error = await pull({dir, client: local.client, rootTopicId: root}).then(
    () => undefined,
    (caught: Error) => caught
  )
  expect(await entries(outside)).toEqual([])
  expect(error?.message).toMatch(
    new RegExp(
      `${link.replace(/[.]/g, '\\.')} is a symbolic link to ${outside.replace(/[.]/g, '\\.')}\\S*, outside the folder: kbsync does not write through links that leave the folder`
    )
  )
  expect(await entries(dir)).toEqual(before)
  expect(await snapshot(dir)).toEqual(files)
}

describe('pull never writes through a link that leaves the folder', () => {
  it('refuses a symlinked topic folder', async () => {
    const {dir, outside} = await place()
    const {root} = await guideTree()
    await symlink(outside, path.join(dir, 'Guide'))
    await expectPullRefused(dir, outside, root, path.join(dir, 'Guide'))
  })

  it('refuses a symlinked folder halfway down the path', async () => {
    const {dir, outside} = await place()
    const {root, guide} = await guideTree()
    const deep = (await local.client.createItem({type: 'topic', title: 'Deep', parent_topic_id: guide})).id
    await local.client.createItem({type: 'article', title: 'Bottom', parent_topic_id: deep, body: 'Way down.'})
    await mkdir(path.join(dir, 'Guide'))
    await symlink(outside, path.join(dir, 'Guide', 'Deep'))
    await expectPullRefused(dir, outside, root, path.join(dir, 'Guide', 'Deep'))
  })

  it('refuses a symlinked _assets folder', async () => {
    const {dir, outside} = await place()
    const root = (await local.client.createItem({type: 'topic', title: `Root ${Math.random()}`, parent_topic_id: null}))
      .id
    await writeFile(path.join(outside, 'source.png'), 'png bytes')
    const {guid} = await local.client.uploadFile(path.join(outside, 'source.png'), {name: 'pic.png'})
    await local.client.createItem({
      type: 'article',
      title: 'Shown',
      parent_topic_id: root,
      body: `A picture: ![pic](${guid})`
    })
    await symlink(path.join(outside, 'assets'), path.join(dir, '_assets'))
    await mkdir(path.join(outside, 'assets'))
    const before = await entries(outside)
    const error = await pull({dir, client: local.client, rootTopicId: root}).then(
      () => undefined,
      (caught: Error) => caught
    )
    expect(await entries(outside)).toEqual(before)
    expect(error?.message).toContain(
      `${path.join(dir, '_assets')} is a symbolic link to ${path.join(outside, 'assets')}, outside the folder`
    )
    expect(await entries(dir)).toEqual(['_assets'])
  })

  it('refuses a symlinked .kbsync folder (the state would be written outside)', async () => {
    const {dir, outside} = await place()
    const {root} = await guideTree()
    await symlink(outside, path.join(dir, '.kbsync'))
    await expectPullRefused(dir, outside, root, path.join(dir, '.kbsync'))
  })

  it('follows a link that stays inside the folder: the state lands in the real folder it names', async () => {
    const {dir, outside} = await place()
    const {root} = await guideTree()
    await mkdir(path.join(dir, '.cache'))
    await symlink(path.join(dir, '.cache'), path.join(dir, '.kbsync'))
    const result = await pull({dir, client: local.client, rootTopicId: root})
    expect(result.status).toBe('ok')
    expect(await entries(path.join(dir, '.cache'))).toContain('state.json')
    expect(await readFile(path.join(dir, 'Guide', 'Intro.md'), 'utf8')).toContain('Start here.')
    expect(await entries(outside)).toEqual([])
  })
})

describe('push never writes through a link that leaves the folder', () => {
  it('refuses a planted NAME.remote.md link instead of overwriting its target with the remote version', async () => {
    const {dir, outside} = await place()
    const root = (await local.client.createItem({type: 'topic', title: `Root ${Math.random()}`, parent_topic_id: null}))
      .id
    await writeFile(path.join(dir, 'faq.md'), '# FAQ\n\nFirst answer.\n')
    expect((await push({dir, client: local.client, rootTopicId: root})).status).toBe('ok')
    const [faq] = await local.client.getTree(root)
    await local.client.updateItem(faq!.id, {body: 'Edited on the web.'})
    await writeFile(path.join(dir, 'faq.md'), '# FAQ\n\nEdited locally.\n')
    const victim = path.join(outside, 'bashrc')
    await writeFile(victim, 'export PATH=/usr/bin\n')
    await symlink(victim, path.join(dir, 'faq.remote.md'))
    const failures: string[] = []
    const result = await push({
      dir,
      client: local.client,
      rootTopicId: root,
      onEvent: (event) => (event.type === 'failed' ? failures.push(event.error) : undefined)
    })
    expect(result.status).not.toBe('ok')
    expect(await readFile(victim, 'utf8')).toBe('export PATH=/usr/bin\n')
    expect(failures.join('\n')).toContain(
      `${path.join(dir, 'faq.remote.md')} is a symbolic link to ${victim}, outside the folder`
    )
    expect(await entries(outside)).toEqual(['bashrc'])
  })

  it('refuses a symlinked .kbsync folder before any write to the platform', async () => {
    const {dir, outside} = await place()
    const root = (await local.client.createItem({type: 'topic', title: `Root ${Math.random()}`, parent_topic_id: null}))
      .id
    await writeFile(path.join(dir, 'page.md'), '# Page\n\nText.\n')
    await symlink(outside, path.join(dir, '.kbsync'))
    const writes = local.server.counts().writes
    await expect(push({dir, client: local.client, rootTopicId: root})).rejects.toThrow(
      `${path.join(dir, '.kbsync')} is a symbolic link to ${outside}, outside the folder`
    )
    expect(local.server.counts().writes).toBe(writes)
    expect(await entries(outside)).toEqual([])
  })

  it('leaves no temporary file behind when writing the state fails', async () => {
    const {dir} = await place()
    const root = (await local.client.createItem({type: 'topic', title: `Root ${Math.random()}`, parent_topic_id: null}))
      .id
    await writeFile(path.join(dir, 'page.md'), '# Page\n\nText.\n')
    // A folder where the state file goes: the rename over it fails.
    await mkdir(path.join(dir, '.kbsync', 'state.json'), {recursive: true})
    await writeFile(path.join(dir, '.kbsync', 'state.json', 'keep'), '')
    await expect(push({dir, client: local.client, rootTopicId: root})).rejects.toThrow()
    expect((await entries(dir)).filter((entry) => entry.endsWith('.tmp'))).toEqual([])
  })
})

describe('init never writes through a link that leaves the folder', () => {
  it('refuses a planted .kbsyncignore link, and writes neither file', async () => {
    const {dir, outside} = await place()
    const cwd = path.dirname(dir)
    const victim = path.join(outside, 'profile')
    await writeFile(victim, 'umask 022\n')
    await symlink(victim, path.join(dir, '.kbsyncignore'))
    const result = await run(['init', '--dir', 'docs', '--force'], {cwd})
    expect(await readFile(victim, 'utf8')).toBe('umask 022\n')
    expect(result.code).toBe(2)
    expect(result.err).toContain(
      `${path.join(dir, '.kbsyncignore')} is a symbolic link to ${victim}, outside the folder`
    )
    expect(await entries(cwd)).not.toContain('kbsync.config.json')
  })
})

describe('the embedded knowledge base never writes through a link that leaves the folder', () => {
  it('refuses a symlinked .kbsync before the embedded server writes its data file there', async () => {
    const {dir, outside} = await place()
    await writeFile(path.join(dir, 'page.md'), '# Page\n\nText.\n')
    await symlink(outside, path.join(dir, '.kbsync'))
    const result = await run(['plan', 'docs'], {cwd: path.dirname(dir)})
    expect(await entries(outside)).toEqual([])
    expect(result.code).toBe(2)
    expect(result.err).toContain(`${path.join('docs', '.kbsync')} is a symbolic link to ${outside}, outside the folder`)
  })

  it('refuses a link planted as its files folder before an upload is stored there', async () => {
    const {dir, outside} = await place()
    await writeFile(path.join(dir, 'page.md'), '# Page\n\n![picture](picture.png)\n')
    await writeFile(path.join(dir, 'picture.png'), 'png bytes')
    await mkdir(path.join(dir, '.kbsync'))
    await symlink(outside, path.join(dir, '.kbsync', 'local-kb.json.files'))
    const result = await run(['push', 'docs'], {cwd: path.dirname(dir)})
    expect(await entries(outside)).toEqual([])
    expect(result.code).toBe(2)
    expect(result.err).toContain(
      `${path.join('docs', '.kbsync', 'local-kb.json.files')} is a symbolic link to ${outside}, outside the folder`
    )
  })
})

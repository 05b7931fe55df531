/**
 * End-to-end: no page lost. Pushed through the CLI (in process) to the real
 * local server: identical files at several paths are one upload serving
 * every body; a document linking to one that could not be written is
 * published with that link as text and completed on the next run; a page
 * with no text of its own is published with a line saying so, or left out
 * when the site generates it.
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {run} from '../cli/helpers.js'
import {temporaryFolders} from '../temp-folders.js'
import {useLocalServer} from './local-server.js'
import {bodyOf, flatten} from './push-helpers.js'

const local = useLocalServer()
const folders = temporaryFolders('e2e-no-page-lost')
afterAll(() => folders.removeAll())

/** A git repository (a `.git` folder is all kbsync looks for) holding `files`, by repository-relative path. */
async function repository(files: Record<string, string | Buffer>): Promise<string> {
  const repo = await folders.make()
  await mkdir(path.join(repo, '.git'))
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(repo, name)), {recursive: true})
    await writeFile(path.join(repo, name), content)
  }
  return repo
}

/** Runs `kbsync <argv>` in `cwd` against the server (or what `extra` points at). */
function kbsync(argv: string[], cwd: string, extra: NodeJS.ProcessEnv = {}) {
  return run(argv, {cwd, env: {...local.env, ...extra}})
}

/** The stored bodies under the topic `root`, by title path. */
async function bodiesUnder(root: string): Promise<Record<string, {id: string; body: string}>> {
  const bodies: Record<string, {id: string; body: string}> = {}
  for (const entry of flatten(await local.client.getTree(root)))
    bodies[entry.titlePath] = {id: entry.id, body: bodyOf(await local.client.getItem(entry.id))}
  return bodies
}

async function rootTopic(title: string): Promise<string> {
  return (await local.client.createItem({type: 'topic', title, parent_topic_id: null})).id
}

/** Requests of one endpoint the server saw since `from` (an index into its log). */
function seen(endpoint: string, from: number): number {
  return local.server
    .requestLog()
    .slice(from)
    .filter((entry) => entry.endpoint === endpoint).length
}

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x42, 0x42])

describe('identical files at several paths', () => {
  it('are one upload that every body naming any of the paths references; a second push writes nothing', async () => {
    const repo = await repository({
      'a/img/x.png': png,
      'b/pic.png': png,
      'a/first.md': '# First\n\n![the x](img/x.png)\n',
      'b/second.md': '# Second\n\n![the pic](pic.png)\n',
      'both.md': '# Both\n\n![one](a/img/x.png)\n\n![two](b/pic.png)\n'
    })
    const root = await rootTopic('Identical files')
    const from = local.server.requestLog().length
    const pushed = await kbsync(['push', '--root-topic', root], repo)
    expect(pushed.err).not.toMatch(/error|unresolved/)
    expect(pushed.code).toBe(0)
    expect(seen('upload', from)).toBe(1)
    const bodies = await bodiesUnder(root)
    const url = /!\[the x\]\((\S+)\)/.exec(bodies['a / First']!.body)![1]!
    expect(url).toMatch(/services\/kb\?Id=/)
    expect(bodies['b / Second']!.body).toContain(`![the pic](${url})`)
    expect(bodies.Both!.body).toContain(`![one](${url})`)
    expect(bodies.Both!.body).toContain(`![two](${url})`)
    const again = local.server.counts().writes
    const second = await kbsync(['push', '--root-topic', root], repo)
    expect(second.code).toBe(0)
    expect(local.server.counts().writes).toBe(again)
  })
})

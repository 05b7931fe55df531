/**
 * A pull killed (SIGKILL) after it moved files and wrote some of them: the
 * next pull must end with the folder a pull that was never interrupted
 * writes, with no false conflict and every relative link right.
 */
import {builtFile} from '../built.js'
import {spawn} from 'node:child_process'
import {writeFile} from 'node:fs/promises'
import path from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {serverSuite, type ServerSuite} from './server-suite.js'
import {KbClient} from '../../src/api/index.js'
import {pull} from '../../src/sync/pull/index.js'
import {snapshot} from './folder-snapshot.js'

const suite = serverSuite('pull-kill')
let server: ReturnType<ServerSuite['server']>
let client: KbClient
beforeAll(() => {
  server = suite.server()
  client = suite.client()
})
const dist = builtFile('src')

const folder = () => suite.folder()

/** Runs a pull of `dir` in a child process that kills itself after the `after`-th document it writes. */
async function pullKilled(dir: string, root: string, after: number): Promise<number | null> {
  const script = path.join(await folder(), 'pull-child.mjs')
  await writeFile(
    script,
    `import {KbClient} from ${JSON.stringify(path.join(dist, 'api/index.js'))}
import {pull} from ${JSON.stringify(path.join(dist, 'sync/pull/index.js'))}
const client = new KbClient({apiUrl: process.env.API, filesUrl: process.env.FILES, token: process.env.TOKEN})
let done = 0
await pull({dir: process.env.DIR, client, rootTopicId: process.env.ROOT, concurrency: 1, onEvent: (event) => {
  if (event.type === 'done' && ++done >= Number(process.env.AFTER)) process.kill(process.pid, 'SIGKILL')
}})
`
  )
  const env = {
    ...process.env,
    API: server.apiUrl,
    FILES: server.filesUrl,
    TOKEN: server.token,
    DIR: dir,
    ROOT: root,
    AFTER: String(after)
  }
  const child = spawn(process.execPath, [script], {env, stdio: 'ignore'})
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)))
}

describe('a pull killed halfway', () => {
  it.each([1, 2, 4, 6])(
    'killed after %i written documents: the next pull ends with the folder of an uninterrupted pull, no conflict',
    async (after) => {
      const root = (await client.createItem({type: 'topic', title: `Killed after ${after}`, parent_topic_id: null})).id
      const target = (await client.createItem({type: 'topic', title: 'Target', parent_topic_id: root})).id
      const moving = (await client.createItem({type: 'topic', title: 'Moving', parent_topic_id: root})).id
      const inside = await client.createItem({
        type: 'article',
        title: 'Inside',
        parent_topic_id: moving,
        body: 'I am inside.'
      })
      const ids = [] as string[]
      for (let i = 0; i < 4; i++) {
        const body = `Page ${i} links to <a data-node="articleLink" data-article-id="${inside.id}">the inside page</a>.`
        ids.push((await client.createItem({type: 'article', title: `Page ${i}`, parent_topic_id: root, body})).id)
      }
      const dir = await folder()
      expect((await pull({dir, client, rootTopicId: root})).status).toBe('ok')
      // On the platform: the folder moves, and some pages are edited.
      await client.moveItem(moving, target)
      for (const id of ids.slice(0, 2))
        await client.updateItem(id, {
          body: `Edited. Still links to <a data-node="articleLink" data-article-id="${inside.id}">the inside page</a>.`
        })

      await pullKilled(dir, root, after)
      const finished = await pull({dir, client, rootTopicId: root})
      expect(finished.conflicts).toEqual([])
      expect(finished.status).toBe('ok')

      const clean = await folder()
      await pull({dir: clean, client, rootTopicId: root})
      const strip = (files: Record<string, string>) =>
        Object.fromEntries(Object.entries(files).filter(([name]) => !name.startsWith('.kbsync')))
      expect(strip(await snapshot(dir))).toEqual(strip(await snapshot(clean)))
      expect((await pull({dir, client, rootTopicId: root})).written).toEqual([])
    }
  )
})

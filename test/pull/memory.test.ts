/**
 * A pull holds the bodies still to write, not every body it read (issue 32):
 * once a document is written, its record's body is let go (the state keeps
 * its hash), so a pull of 30,000 articles does not end holding 30,000
 * bodies. In-process against the local server, watching the run's remote
 * snapshot at each document written.
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {applyPull, planPullRun, pull} from '../../src/sync/pull/index.js'
import {useLocalServer} from '../e2e/local-server.js'
import {temporaryFolders} from '../temp-folders.js'

const local = useLocalServer()
const temporary = temporaryFolders('pull-memory')
afterAll(() => temporary.removeAll())

describe("a pull's memory", () => {
  it('lets go of each body once its document is written; the files and the state are as before', async () => {
    const client = local.client
    const root = (await client.createItem({type: 'topic', title: 'Memory', parent_topic_id: null})).id
    const titles = Array.from({length: 6}, (_, n) => `Article ${n}`)
    for (const title of titles)
      await client.createItem({type: 'article', title, parent_topic_id: root, body: `The body of ${title}.`})
    const dir = await temporary.make()
    const written: string[] = []
    const heldAfterWritten: string[] = []
    const options = {dir, client, rootTopicId: root}
    const {plan, context} = await planPullRun(options)
    const result = await applyPull(plan, context, {
      ...options,
      onEvent: (event) => {
        if (event.type !== 'done') return
        // The documents written before this one: their bodies are gone by now.
        for (const id of written) if (context.remote.details[id]?.body !== '') heldAfterWritten.push(id)
        written.push(event.op.id)
      }
    })
    expect(result.failed).toEqual([])
    expect(written.length).toBeGreaterThanOrEqual(titles.length)
    expect(heldAfterWritten).toEqual([])
    const held = Object.values(context.remote.details).filter((detail) => detail.body !== '')
    expect(held).toEqual([])
    // What was let go was not needed: every file says its body, and the state has each hash (a pull after it writes nothing).
    for (const title of titles)
      expect(await readFile(path.join(dir, `${title}.md`), 'utf8')).toContain(`The body of ${title}.`)
    const again = await pull(options)
    expect(again.written).toEqual([])
    expect(again.status).toBe('ok')
  })
})

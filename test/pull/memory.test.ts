/**
 * A pull holds the bodies still to write, not every body it read (issue 32):
 * once a document is written, its record's body is let go (the state keeps
 * its hash), so a pull of 30,000 articles does not end holding 30,000
 * bodies. The check after the pull parses and renders each pulled file
 * (`verify.ts`) and lets go of its tree and render once checked, so it ends
 * holding no tree. In-process against the local server, watching the run's
 * remote snapshot at each document written, and the check's scan.
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {StateStore} from '../../src/local/index.js'
import {applyPull, planPullRun, pull, type PullOptions} from '../../src/sync/pull/index.js'
import type {ApplyRun} from '../../src/sync/pull/run.js'
import {verifyPulled} from '../../src/sync/pull/verify.js'
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

  it('checks each pulled document holding its tree only while it checks it', async () => {
    const client = local.client
    const root = (await client.createItem({type: 'topic', title: 'Checked', parent_topic_id: null})).id
    const first = await client.createItem({type: 'article', title: 'First', parent_topic_id: root, body: 'One.'})
    for (let n = 0; n < 5; n++) {
      const body = `Item ${n}, *emphasised*, with [a link](${first.id}) and a list:\n\n- one\n- two\n`
      await client.createItem({type: 'article', title: `Checked ${n}`, parent_topic_id: root, body})
    }
    const dir = await temporary.make()
    const options: PullOptions = {dir, client, rootTopicId: root}
    const {plan, context} = await planPullRun(options)
    expect((await applyPull(plan, context, options)).failed).toEqual([])
    // The check of that pull run again over the folder it left, every document as pulled now.
    const {state} = context
    const pulled = Object.entries(state.items).map(([key, entry]) => [entry.id!, {key, entry}] as const)
    const run: ApplyRun = {
      dir: context.scan.dir,
      plan,
      context,
      options,
      result: {plan, status: 'ok', written: plan.ops.map((op) => op.file), conflicts: [], failed: [], diagnostics: []},
      store: new StateStore(context.scan.dir, state),
      book: {before: new Map(), after: new Map(pulled), keyNow: new Map()},
      facts: new Map(),
      files: {assets: new Map(), local: new Map(), downloadedNow: new Set(), deferred: new Map()},
      canonical: new Map(),
      mergedBases: new Map(),
      predictions: new Map(),
      recorded: false,
      emit: () => undefined,
      fail: () => undefined
    }
    for (const [, {entry}] of pulled) delete entry.renderedHash
    const scan = await verifyPulled(run)
    const checked = Object.values(scan.byPath).filter((node) => node.kind === 'article')
    expect(checked.length).toBe(6)
    // Each was checked (push's hashes recorded) and nothing of its parse is left on its node.
    expect(pulled.filter(([, {entry}]) => entry.renderedHash === undefined)).toEqual([])
    expect(checked.filter((node) => node.tree !== undefined).map((node) => node.path)).toEqual([])
  })
})

/**
 * A no-op pull decides from the remote listing and the state (issue 32): it
 * parses no body of the folder nor of the platform, converts nothing and
 * rewrites no file (the state included); and a local edit made after it is
 * still seen by the next pull. Through the CLI in-process against the local
 * server; the parses are counted at the dialect's door, which the folder's
 * scan and the pull's conversions all go through.
 */
import {readdir, readFile, stat, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {cli} from '../e2e/push-helpers.js'
import {useLocalServer} from '../e2e/local-server.js'
import {temporaryFolders} from '../temp-folders.js'

const parses = vi.hoisted(() => ({count: 0}))
vi.mock('../../src/dialect/index.js', async (original) => {
  const actual = await original<typeof import('../../src/dialect/index.js')>()
  const counted =
    <A extends unknown[], R>(run: (...args: A) => R) =>
    (...args: A): R => {
      parses.count++
      return run(...args)
    }
  return {
    ...actual,
    parseKb: counted(actual.parseKb),
    gfmToKbTree: counted(actual.gfmToKbTree),
    kbToGfm: counted(actual.kbToGfm),
    kbTreeToGfm: counted(actual.kbTreeToGfm)
  }
})

const local = useLocalServer()
const temporary = temporaryFolders('pull-no-op')
afterAll(() => temporary.removeAll())

let root: string
let guide: string
// Code and a quote: bodies a scan must parse (a plain one it reads from a pattern, `local/plain-body.ts`).
const tail = '| a | b |\n| --- | --- |\n| 1 | 2 |\n\n```js\nconst answer = 42\n```\n\n> A quote.'

beforeAll(async () => {
  const client = local.client
  root = (await client.createItem({type: 'topic', title: 'No-op', parent_topic_id: null})).id
  const topic = (await client.createItem({type: 'topic', title: 'Guides', parent_topic_id: root, body: 'All guides.'}))
    .id
  guide = (
    await client.createItem({
      type: 'article',
      title: 'Guide',
      parent_topic_id: topic,
      body: `First paragraph.\n\nSecond paragraph.\n\n${tail}`
    })
  ).id
  await client.createItem({
    type: 'article',
    title: 'Start',
    parent_topic_id: root,
    body: `Read the [guide](https://pyrus.com/t#kb${guide}) first.\n\n- one\n- two\n\n\`inline\` code.`
  })
})

/** Every file under `dir` (`.kbsync` included) with its modification time and bytes. */
async function files(dir: string, prefix = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const entry of await readdir(path.join(dir, prefix), {withFileTypes: true})) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name
    if (entry.isDirectory()) Object.assign(out, await files(dir, relative))
    else {
      const at = path.join(dir, relative)
      out[relative] = `${(await stat(at)).mtimeMs} ${await readFile(at, 'latin1')}`
    }
  }
  return out
}

const pull = (dir: string) => cli(['pull', dir, '--root-topic', root], local.env)

describe('a no-op pull', () => {
  it('parses and converts no body and touches no file; a local edit after it is still seen', async () => {
    const dir = await temporary.make()
    parses.count = 0
    const first = await pull(dir)
    expect(first.code, first.err).toBe(0)
    // The counter sees the pull's parses (else the zero below would prove nothing).
    expect(parses.count).toBeGreaterThan(0)
    const before = await files(dir)

    parses.count = 0
    const again = await pull(dir)
    expect(again.code, again.err).toBe(0)
    expect(parses.count).toBe(0)
    expect(await files(dir)).toEqual(before)

    // Edited here after the no-op pull, and on the platform elsewhere in the body: the next pull sees both sides.
    const file = path.join(dir, 'Guides', 'Guide.md')
    await writeFile(file, (await readFile(file, 'utf8')).replace('First paragraph.', 'First paragraph, edited here.'))
    local.server.webEdit(guide, {
      body: `First paragraph.\n\nSecond paragraph, edited on the web.\n\n${tail}`
    })
    const third = await pull(dir)
    const text = await readFile(file, 'utf8')
    expect(text).toContain('First paragraph, edited here.')
    expect(third.code === 0 ? text : await readFile(path.join(dir, 'Guides', 'Guide.remote.md'), 'utf8')).toContain(
      'edited on the web'
    )
  })
})

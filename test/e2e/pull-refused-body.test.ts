/**
 * A body on the platform over the parse budget (a 2 MB article written on
 * the web, or pushed as text) cannot be converted without loss: pull writes
 * no file for it, never overwrites the file it has, says so once (the file,
 * what, how to fix), and records the refusal in the state so the next pull
 * decides from the listing: no record read again, no message repeated, until
 * the article changes on the platform. End to end through the CLI against
 * the real local server.
 */
import {existsSync} from 'node:fs'
import {mkdtemp, readFile, readdir, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {maxBodyLength} from '../../src/trust/index.js'
import {useLocalServer} from './local-server.js'
import {cli} from './push-helpers.js'

const local = useLocalServer()
const folders: string[] = []
afterAll(async () => {
  for (const dir of folders) await rm(dir, {recursive: true, force: true})
})

/** A plain body of paragraphs just over the parse budget's length. */
function hugeBody(): string {
  const paragraph = 'A sentence of plain words that repeats until the body is longer than kbsync parses.\n\n'
  return paragraph.repeat(Math.ceil((maxBodyLength + 1) / paragraph.length))
}

/** The records (`GET /knowledgebase/{id}`) a run read. */
async function recordsRead(run: () => Promise<unknown>): Promise<number> {
  const before = local.server.counts()['get'] ?? 0
  await run()
  return (local.server.counts()['get'] ?? 0) - before
}

describe('pull of a body over the parse budget', () => {
  it('is refused once, recorded, not read again until it changes, and never overwrites the file', async () => {
    const root = (await local.client.createItem({type: 'topic', title: 'Big', parent_topic_id: null})).id
    await local.client.createItem({type: 'article', title: 'Small', parent_topic_id: root, body: 'Short.\n'})
    const big = await local.client.createItem({
      type: 'article',
      title: 'Huge',
      parent_topic_id: root,
      body: hugeBody()
    })
    const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-refused-'))
    folders.push(dir)
    const pull = () => cli(['pull', dir, '--root-topic', root], local.env)

    let first!: Awaited<ReturnType<typeof pull>>
    expect(await recordsRead(async () => (first = await pull()))).toBeGreaterThanOrEqual(2)
    expect(first.code, first.err).toBe(0)
    const said = first.out + first.err
    expect(said).toMatch(/Huge\.md: warning: "Huge" \(article \S+\) is not pulled: kbsync cannot convert its body/)
    expect(said).toContain(`more than ${maxBodyLength}`)
    expect(said).toContain('split the article on the platform into smaller ones')
    expect(said).not.toContain('kept as text')
    expect(said.match(/is not pulled/g)).toHaveLength(1)
    expect((await readdir(dir)).filter((name) => name.endsWith('.md'))).toEqual(['Small.md'])

    // The no-op pull decides from the listing and the state: no record read, nothing said again.
    let again!: Awaited<ReturnType<typeof pull>>
    expect(await recordsRead(async () => (again = await pull()))).toBe(0)
    expect(again.code, again.err).toBe(0)
    expect(again.out + again.err).not.toContain('is not pulled')

    // Shortened on the platform: read again, and pulled.
    await local.client.updateItem(big.id, {body: 'Now short.\n'})
    const shortened = await pull()
    expect(shortened.code, shortened.err).toBe(0)
    const file = path.join(dir, 'Huge.md')
    expect(await readFile(file, 'utf8')).toContain('Now short.')
    const state = await readFile(path.join(dir, '.kbsync', 'state.json'), 'utf8')
    expect(state).not.toContain('refusedBodies')

    // Made huge again on the web: the file in the folder is left as it is, and said so once.
    const kept = await readFile(file, 'utf8')
    await local.client.updateItem(big.id, {body: hugeBody()})
    const refused = await pull()
    expect(refused.code, refused.err).toBe(0)
    expect(refused.out + refused.err).toMatch(/Huge\.md: warning: "Huge" .* is not pulled/)
    expect(await readFile(file, 'utf8')).toBe(kept)
    expect(existsSync(path.join(dir, 'Huge.conflict.md'))).toBe(false)
    expect(await recordsRead(pull)).toBe(0)
    expect(await readFile(file, 'utf8')).toBe(kept)
  }, 120_000)

  it('is not read again by a pull that moves other documents; moved itself, its file stays and that is said', async () => {
    const root = (await local.client.createItem({type: 'topic', title: 'Moves', parent_topic_id: null})).id
    const shelf = await local.client.createItem({type: 'topic', title: 'Shelf', parent_topic_id: root})
    await local.client.createItem({type: 'article', title: 'Book', parent_topic_id: shelf.id, body: 'On the shelf.\n'})
    const small = await local.client.createItem({
      type: 'article',
      title: 'Small',
      parent_topic_id: root,
      body: 'Short.\n'
    })
    const big = await local.client.createItem({type: 'article', title: 'Huge', parent_topic_id: root, body: 'Short.\n'})
    const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-refused-'))
    folders.push(dir)
    const pull = () => cli(['pull', dir, '--root-topic', root], local.env)
    const readsOfHuge = () =>
      local.server.requestLog().filter((r) => r.method === 'GET' && r.path.endsWith(`/knowledgebase/${big.id}`))
    expect((await pull()).code).toBe(0)
    const file = path.join(dir, 'Huge.md')
    const kept = await readFile(file, 'utf8')
    await local.client.updateItem(big.id, {body: hugeBody()})
    const refused = await pull()
    expect(refused.out + refused.err).toMatch(/is not pulled/)

    // Another document moves: every record is read for the links that change, but not the refused one.
    await local.client.moveItem(small.id, shelf.id)
    local.server.resetLog()
    const moved = await pull()
    expect(moved.code, moved.err).toBe(0)
    expect(existsSync(path.join(dir, 'Shelf', 'Small.md'))).toBe(true)
    expect(readsOfHuge()).toEqual([])
    expect(moved.out + moved.err).not.toContain('Huge')

    // The refused document itself moves: its file stays as it is, and the pull says where it belongs.
    await local.client.moveItem(big.id, shelf.id)
    const itself = await pull()
    expect(itself.code, itself.err).toBe(0)
    expect(itself.out + itself.err).toMatch(
      /Huge\.md: warning: "Huge" \(article \S+\) moved on the platform to `Shelf\/Huge\.md`, .* the file stays at `Huge\.md`/
    )
    expect(await readFile(file, 'utf8')).toBe(kept)
    expect(existsSync(path.join(dir, 'Shelf', 'Huge.md'))).toBe(false)
    local.server.resetLog()
    const again = await pull()
    expect(again.out + again.err).toMatch(/moved on the platform to `Shelf\/Huge\.md`/)
    expect(readsOfHuge()).toEqual([])
  }, 120_000)
})

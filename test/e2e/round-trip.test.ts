/**
 * The round trip on real docs trees (issue 31): pushed, then edited on the
 * platform, a tree pulls back as small patches of the authors' own files.
 * For each corpus, through the CLI in-process against the local server: a
 * pull right after the push changes no file; three one-word web edits change
 * three files by at most two lines each, front matter untouched, and the
 * next push writes nothing; a local edit and a web edit in other blocks
 * merge; the same block edited on both sides is a conflict that keeps the
 * file and puts the platform's block beside it.
 */
import {existsSync} from 'node:fs'
import {readdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {copyTree, corpus, ownSites, type DocsTree} from './docs-sites.js'
import {useLocalServer} from './local-server.js'
import {bodyOf, cli} from './push-helpers.js'
import {temporaryFolders} from '../temp-folders.js'
import {changedLines, editableWords, frontMatterOf, type EditableWord} from './round-trip-words.js'

const local = useLocalServer()
const temporary = temporaryFolders('round-trip')
afterAll(() => temporary.removeAll())

/** Our sites of four formats, and the real trees of them when the corpora are there. */
const trees = [
  ownSites.docusaurus,
  ownSites.jekyll,
  ownSites.github,
  ownSites.hugo,
  corpus('redux-docs', '.'),
  corpus('jekyll-docs', '.'),
  corpus('gemini-cli-docs', '.'),
  corpus('docsy-docs', 'docsy.dev/content/en')
].filter((tree): tree is DocsTree => tree !== undefined)

/** The text of every document file under `dir` (not the state, not conflict copies), by relative path. */
async function documents(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (const entry of await readdir(dir, {recursive: true, withFileTypes: true})) {
    const rel = path.relative(dir, path.join(entry.parentPath, entry.name))
    if (entry.isFile() && /\.mdx?$/.test(rel) && !rel.startsWith('.kbsync'))
      files.set(rel, await readFile(path.join(dir, rel), 'utf8'))
  }
  return files
}

/** The files whose text differs between two snapshots. */
function differing(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()])
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort()
}

/** Each synced document's id by its file, from the state (a topic's file: its index page, when it has one). */
async function idsByFile(dir: string): Promise<Map<string, string>> {
  type Items = Record<string, {id?: string; type: string}>
  const data = JSON.parse(await readFile(path.join(dir, '.kbsync/state.json'), 'utf8')) as {
    items?: Items
    targets?: Record<string, {items: Items}>
  }
  const ids = new Map<string, string>()
  for (const items of data.targets ? Object.values(data.targets).map((target) => target.items) : [data.items ?? {}])
    for (const [key, entry] of Object.entries(items)) {
      const files =
        entry.type === 'topic'
          ? ['_index.md', 'index.md', 'README.md'].map((name) => path.posix.join(key, name))
          : [key]
      const file = files.find((candidate) => existsSync(path.join(dir, candidate)))
      if (entry.id && file !== undefined) ids.set(file, entry.id)
    }
  return ids
}

const writes = () => local.server.requestLog().filter((entry) => entry.write).length

/** Replaces `word` (once) in the platform's body of `id`, as a colleague would in the web application. */
async function webEdit(id: string, from: string, to: string): Promise<void> {
  const item = await local.client.getItem(id)
  const body = bodyOf(item)
  expect(body.split(from).length, `${from} once in ${item.title}`).toBe(2)
  await local.client.updateItem(id, {body: body.replace(from, to)})
}

for (const tree of trees) {
  describe(`the round trip on ${tree.name}`, () => {
    let dir: string
    let root: string
    let words: EditableWord[]
    const pull = () => cli(['pull', dir, '--root-topic', root], local.env)
    const push = () => cli(['push', dir, '--root-topic', root, '--broken-links=warn'], local.env)

    beforeAll(async () => {
      dir = await copyTree(tree, await temporary.make())
      root = (await local.client.createItem({type: 'topic', title: tree.name, parent_topic_id: null})).id
      const pushed = await push()
      expect(pushed.code, pushed.err).toBe(0)
      words = await editableWords(dir, await idsByFile(dir), local.client)
      expect(words.length, 'documents with a word to edit').toBeGreaterThanOrEqual(5)
    }, 240_000)

    it('pulls nothing right after the push', async () => {
      const before = await documents(dir)
      const pulled = await pull()
      expect(pulled.code, pulled.err).toBe(0)
      expect(differing(before, await documents(dir))).toEqual([])
    }, 120_000)

    it('brings three one-word web edits back as three small patches, front matter untouched', async () => {
      const before = await documents(dir)
      const edited = words.slice(0, 3)
      for (const word of edited) await webEdit(word.id, word.word, word.replacement)
      const pulled = await pull()
      expect(pulled.code, pulled.err).toBe(0)
      const after = await documents(dir)
      expect(differing(before, after)).toEqual(edited.map((word) => word.file).sort())
      for (const word of edited) {
        const [was, now] = [before.get(word.file)!, after.get(word.file)!]
        expect(changedLines(was, now), word.file).toBeLessThanOrEqual(2)
        expect(now).toContain(word.replacement)
        expect(frontMatterOf(now), word.file).toBe(frontMatterOf(was))
      }
      local.server.resetLog()
      const again = await push()
      expect(again.code, again.err).toBe(0)
      expect(writes(), again.out).toBe(0)
    }, 180_000)

    it('merges a local edit and a web edit in other blocks', async () => {
      const word = words[3]!
      const file = path.join(dir, word.file)
      const text = await readFile(file, 'utf8')
      // The local edit: a sentence added at the end of the file, a block of its own.
      await writeFile(file, text.replace(/\n*$/, '\n\nA line the author added locally.\n'))
      await webEdit(word.id, word.word, word.replacement)
      const pulled = await pull()
      expect(pulled.code, pulled.err).toBe(0)
      const merged = await readFile(file, 'utf8')
      expect(merged).toContain('A line the author added locally.')
      expect(merged).toContain(word.replacement)
      expect(frontMatterOf(merged)).toBe(frontMatterOf(text))
      expect(existsSync(file.replace(/\.mdx?$/, '.remote.md'))).toBe(false)
      // The local edit is still to be pushed, and the push sends it.
      local.server.resetLog()
      const pushed = await push()
      expect(pushed.code, pushed.err).toBe(0)
      expect(writes()).toBeGreaterThan(0)
      expect(bodyOf(await local.client.getItem(word.id))).toContain('A line the author added locally.')
    }, 180_000)

    it('keeps the file and puts the platform block beside it when both edit the same block', async () => {
      const word = words.at(-1)!
      const file = path.join(dir, word.file)
      const text = await readFile(file, 'utf8')
      const mine = text.replace(word.word, `${word.word} (edited here)`)
      await writeFile(file, mine)
      await webEdit(word.id, word.word, word.replacement)
      const pulled = await pull()
      expect(pulled.code, pulled.err).toBe(3)
      expect(pulled.err).toContain('pull-conflict')
      expect(await readFile(file, 'utf8')).toBe(mine)
      const copy = await readFile(file.replace(/\.mdx?$/, '.remote.md'), 'utf8')
      expect(copy).toContain(word.replacement)
      // Beside the file, the copy differs only where the platform changed it: the author's syntax elsewhere.
      expect(changedLines(text, copy)).toBeLessThanOrEqual(2)
      expect(frontMatterOf(copy)).toBe(frontMatterOf(text))
    }, 120_000)
  })
}

/** A Docusaurus tree's `introduction` folder and the admonition to edit in it: our site's, and redux-docs' when there. */
const admonitions = [
  {tree: ownSites.docusaurus, folder: 'docs/introduction', file: 'getting-started.md'},
  ...[corpus('redux-docs', '.')]
    .filter((tree) => tree !== undefined)
    .map((tree) => ({tree, folder: 'introduction', file: 'why-rtk-is-redux-today.md'}))
]

describe.each(admonitions.map((entry) => [entry.tree.name, entry] as const))(
  'a web edit inside an admonition (%s)',
  (_, {tree, folder, file: name}) => {
    it("keeps the admonition in the author's syntax (`:::tip`)", async () => {
      const repo = await temporary.make()
      const dir = path.join(await copyTree({...tree, sub: '.'}, repo), folder)
      const root = (await local.client.createItem({type: 'topic', title: 'Admonitions', parent_topic_id: null})).id
      const pushed = await cli(['push', dir, '--root-topic', root, '--broken-links=warn'], local.env)
      expect(pushed.code, pushed.err).toBe(0)
      const file = path.join(dir, name)
      const before = await readFile(file, 'utf8')
      const id = (await idsByFile(dir)).get(name)!
      await webEdit(id, 'See these pages to learn how', 'See these pages to learn more about how')
      const pulled = await cli(['pull', dir, '--root-topic', root], local.env)
      expect(pulled.code, pulled.err).toBe(0)
      const after = await readFile(file, 'utf8')
      expect(after).toContain(':::tip\n\nSee these pages to learn more about how')
      expect(after).not.toContain('[!TIP]')
      expect(changedLines(before, after)).toBe(1)
      expect(frontMatterOf(after)).toBe(frontMatterOf(before))
    }, 120_000)
  }
)

describe('push refuses unresolved conflict markers', () => {
  it('stops at file:line before any write', async () => {
    const dir = await temporary.make()
    const marked = ['Intro', '', '<<<<<<< HEAD', 'mine', '=======', 'theirs', '>>>>>>> main', ''].join('\n')
    await writeFile(path.join(dir, 'Guide.md'), marked)
    await writeFile(path.join(dir, 'Other.md'), 'Fine.\n')
    const root = (await local.client.createItem({type: 'topic', title: 'Markers', parent_topic_id: null})).id
    local.server.resetLog()
    const pushed = await cli(['push', dir, '--root-topic', root], local.env)
    expect(pushed.code).toBe(2)
    expect(pushed.err).toMatch(/Guide\.md:3/)
    expect(pushed.err).toMatch(/conflict-markers/)
    expect(writes()).toBe(0)
  })
})

/**
 * End-to-end: pull into docs trees a navigation shapes (real corpora:
 * mdBook `SUMMARY.md`, MkDocs `nav`, Hugo bundles), in-process through the
 * CLI against the real local server. Pull right after push writes nothing;
 * web edits land in the files the documents came from; an article created,
 * deleted, moved or retitled on the web lands in its folder and in the
 * navigation file, every other line byte for byte; a second pull and a push
 * after it write nothing.
 */
import {afterAll, describe, expect, it} from 'vitest'
import {temporaryFolders} from '../temp-folders.js'
import {corpus, copyTree, ownSites, snapshot, type DocsTree} from './docs-sites.js'
import {useLocalServer} from './local-server.js'
import {bodyOf, cli} from './push-helpers.js'
import {itemTitled} from './settle.js'

const local = useLocalServer()
const temporary = temporaryFolders('pull-layouts')

afterAll(() => temporary.removeAll())

/** The files whose text differs between two snapshots (added, removed or changed). */
function changed(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)])
  return [...names].filter((name) => before[name] !== after[name]).sort()
}

/** Pushes `dir` under a fresh root topic; returns the root's id. */
async function pushed(dir: string, title: string): Promise<string> {
  const root = (await local.client.createItem({type: 'topic', title, parent_topic_id: null})).id
  const run = await cli(['push', dir, '--root-topic', root, '--broken-links=warn'], local.env)
  expect(run.code, run.err).toBe(0)
  return root
}

async function pull(dir: string, root: string): Promise<void> {
  const run = await cli(['pull', dir, '--root-topic', root], local.env)
  expect(run.code, run.err + run.out).toBe(0)
}

/** A pull and a push after it write nothing. */
async function settled(dir: string, root: string): Promise<void> {
  const before = await snapshot(dir)
  await pull(dir, root)
  expect(changed(before, await snapshot(dir))).toEqual([])
  local.server.resetLog()
  const again = await cli(['push', dir, '--root-topic', root, '--broken-links=warn'], local.env)
  expect(again.code, again.err).toBe(0)
  expect(local.server.counts().writes, again.out + again.err).toBe(0)
}

const find = (root: string, title: string) => itemTitled(local, root, title)

/** Replaces `from` by `to` in the body of the item titled `title` on the platform. */
async function webEdit(root: string, title: string, from: string, to: string): Promise<void> {
  const node = await find(root, title)
  const body = bodyOf(await local.client.getItem(node.id))
  expect(body).toContain(from)
  await local.client.updateItem(node.id, {body: body.replace(from, to)})
}

/** The web edits of the mdBook scenario, by title, and the `SUMMARY.md` lines they must change. */
interface BookCase {
  tree: DocsTree
  /** A chapter with sub-chapters: its page is edited (`edit`), and an article is created under it. */
  chapter: {title: string; file: string; edit: [string, string]}
  deleted: {title: string; file: string}
  moved: {title: string; from: string; to: string; into: string}
  retitled: {from: string; to: string}
  added: string[]
  removed: string[]
}

/** Pulls in place: edits land in the chapter files, and SUMMARY.md follows creations, deletions, moves and retitles. */
async function bookScenario(book: BookCase): Promise<void> {
  const src = await copyTree(book.tree, await temporary.make())
  const root = await pushed(src, book.tree.name)
  const start = await snapshot(src)
  await pull(src, root)
  expect(changed(start, await snapshot(src))).toEqual([])

  // A chapter with sub-chapters is a topic whose body is its page: the edit lands there, no `_index.md` appears.
  const [from, to] = book.chapter.edit
  await webEdit(root, book.chapter.title, from, to)
  const chapter = await find(root, book.chapter.title)
  await local.client.createItem({type: 'article', title: 'Greetings', parent_topic_id: chapter.id, body: 'Hi.'})
  await local.client.deleteItem((await find(root, book.deleted.title)).id)
  const into = await find(root, book.moved.into)
  await local.client.moveItem((await find(root, book.moved.title)).id, into.id)
  await local.client.updateItem((await find(root, book.retitled.from)).id, {title: book.retitled.to})
  await pull(src, root)

  const after = await snapshot(src)
  const folder = book.chapter.file.replace(/\.md$/, '')
  expect(after[book.chapter.file]).toContain(to)
  expect(after[`${folder}/_index.md`]).toBeUndefined()
  expect(after[`${folder}/Greetings.md`]).toContain('Hi.')
  expect(after[book.deleted.file]).toBeUndefined()
  expect(after[book.moved.to]).toBeDefined()
  expect(after[book.moved.from]).toBeUndefined()
  const summary = after['SUMMARY.md']!.split('\n')
  const was = start['SUMMARY.md']!.split('\n')
  // Every other line byte for byte: the edits are exactly these.
  expect(summary.filter((line) => !was.includes(line)).sort()).toEqual(book.added)
  expect(was.filter((line) => !summary.includes(line))).toEqual(book.removed)
  // In the platform's order among their siblings.
  const chapters = (title: string) => {
    const start = summary.findIndex((line) => line.startsWith(`- [${title}]`))
    const end = summary.findIndex((line, index) => index > start && /^(?:- |\S)/.test(line))
    return summary
      .slice(start + 1, end === -1 ? undefined : end)
      .filter((line) => line.startsWith('    - '))
      .map((line) => /\[(.*)\]/.exec(line)![1])
  }
  const titles = async (title: string) => ((await find(root, title)).children ?? []).map((child) => child.title)
  expect(chapters(book.chapter.title)).toEqual(await titles(book.chapter.title))
  expect(chapters(book.moved.into)).toEqual(await titles(book.moved.into))
  await settled(src, root)
}

describe('an mdBook tree (SUMMARY.md)', () => {
  it('pulls our mdBook site in place, SUMMARY.md following the web', async () => {
    await bookScenario({
      tree: ownSites.mdbook,
      chapter: {title: 'Basics', file: 'basics.md', edit: ['introduces the building', 'introduces the first building']},
      deleted: {title: 'Comments', file: 'basics/comments.md'},
      moved: {title: 'Debug output', from: 'basics/printing/debug.md', to: 'types/debug.md', into: 'Types'},
      retitled: {from: 'Tuples', to: 'Tuples and pairs'},
      added: [
        '    - [Debug output](types/debug.md)',
        '    - [Greetings](basics/Greetings.md)',
        '    - [Tuples and pairs](types/tuples.md)'
      ],
      removed: [
        '    - [Comments](basics/comments.md)',
        '        - [Debug output](basics/printing/debug.md)',
        '    - [Tuples](types/tuples.md)'
      ]
    })
  }, 300_000)

  const rust = corpus('rust-by-example', 'src')
  it.skipIf(!rust)(
    'pulls rust-by-example in place, SUMMARY.md following the web',
    async () => {
      await bookScenario({
        tree: rust!,
        chapter: {
          title: 'Hello World',
          file: 'hello.md',
          edit: ['the traditional Hello World', 'the classic Hello World']
        },
        deleted: {title: 'Comments', file: 'hello/comment.md'},
        moved: {
          title: 'Debug',
          from: 'hello/print/print_debug.md',
          to: 'primitives/print_debug.md',
          into: 'Primitives'
        },
        retitled: {from: 'Tuples', to: 'Tuples and pairs'},
        added: [
          '    - [Debug](primitives/print_debug.md)',
          '    - [Greetings](hello/Greetings.md)',
          '    - [Tuples and pairs](primitives/tuples.md)'
        ],
        removed: [
          '    - [Comments](hello/comment.md)',
          '        - [Debug](hello/print/print_debug.md)',
          '    - [Tuples](primitives/tuples.md)'
        ]
      })
    },
    300_000
  )
})

/** Our site of a format, and the real tree of it when the corpora are there. */
const both = (own: DocsTree, real: DocsTree | undefined) =>
  (real ? [own, real] : [own]).map((tree) => [tree.name, tree] as const)

describe.each(both(ownSites.mkdocs, corpus('mkdocs-docs', '.')))(
  'an MkDocs tree (%s, nav in mkdocs.yml)',
  (_, tree) => {
    it('adds, removes and retitles nav entries where the platform did, in its order; everything else byte for byte', async () => {
      const dir = await copyTree(tree, await temporary.make())
      const root = await pushed(dir, 'MkDocs')
      const start = await snapshot(dir)
      await pull(dir, root)
      expect(changed(start, await snapshot(dir))).toEqual([])

      const about = await find(root, 'About')
      await local.client.createItem({
        type: 'article',
        title: 'Security',
        parent_topic_id: about.id,
        body: 'Report issues.'
      })
      // Nobody links to it (a deleted link target would change the bodies that name it on the next push).
      await local.client.deleteItem((await find(root, 'License')).id)
      await local.client.updateItem((await find(root, 'Release Notes')).id, {title: 'Changes'})
      await pull(dir, root)

      const after = await snapshot(dir)
      expect(after['docs/about/Security.md']).toContain('Report issues.')
      expect(after['docs/about/license.md']).toBeUndefined()
      const nav = after['mkdocs.yml']!.split('\n')
      const was = start['mkdocs.yml']!.split('\n')
      expect(nav.filter((line) => !was.includes(line)).sort()).toEqual([
        '    - Changes: about/release-notes.md',
        '    - Security: about/Security.md'
      ])
      expect(was.filter((line) => !nav.includes(line)).sort()).toEqual([
        '    - License: about/license.md',
        '    - Release Notes: about/release-notes.md'
      ])
      const children = ((await find(root, 'About')).children ?? []).map((child) => child.title)
      const inAbout = nav.slice(nav.indexOf('  - About:') + 1)
      const listed = inAbout
        .slice(
          0,
          inAbout.findIndex((line) => !line.startsWith('    - '))
        )
        .map((line) => /- (.*?):/.exec(line)![1])
      expect(listed).toEqual(children)
      await settled(dir, root)
    }, 300_000)
  }
)

describe.each(both(ownSites.hugo, corpus('docsy-docs', 'docsy.dev/content/en')))(
  'a Hugo tree (%s, page bundles)',
  (_, tree) => {
    it('writes a web edit of a bundle’s body into its index.md: no _index.md appears beside it', async () => {
      const dir = await copyTree(tree, await temporary.make())
      const root = await pushed(dir, 'Docsy')
      const start = await snapshot(dir)
      await pull(dir, root)
      expect(changed(start, await snapshot(dir))).toEqual([])
      await webEdit(root, 'Examples and templates', 'One of the best ways', 'One of the finest ways')
      await pull(dir, root)
      const after = await snapshot(dir)
      // The body's images are the document step's (downloaded where the body names them); no other document changes.
      expect(changed(start, after).filter((file) => !file.includes('/_assets/'))).toEqual(['examples/index.md'])
      expect(after['examples/_index.md']).toBeUndefined()
      expect(after['examples/index.md']).toContain('One of the finest ways')
      await settled(dir, root)
    }, 300_000)
  }
)

describe.each(both(ownSites.docusaurus, corpus('redux-docs', '.')))(
  'a Docusaurus tree (%s, autogenerated sidebar)',
  (_, tree) => {
    it('writes an article created on the web into its topic’s folder; the folder needs no navigation edit', async () => {
      const dir = await copyTree(tree, await temporary.make())
      const root = await pushed(dir, 'Redux')
      const start = await snapshot(dir)
      await pull(dir, root)
      expect(changed(start, await snapshot(dir))).toEqual([])
      const introduction = await find(root, 'Introduction')
      await local.client.createItem({
        type: 'article',
        title: 'Glossary',
        parent_topic_id: introduction.id,
        body: 'Terms.'
      })
      await pull(dir, root)
      const after = await snapshot(dir)
      expect(changed(start, after)).toEqual(['introduction/Glossary.md'])
      await settled(dir, root)
    }, 300_000)
  }
)

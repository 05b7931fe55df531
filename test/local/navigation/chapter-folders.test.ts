/**
 * An mdBook chapter without sub-chapters is a page, unless its folder is
 * there beside it, kept by a `.gitkeep` (a pull keeps it so when the
 * chapter's last sub-chapter left on the web): then it stays a topic whose
 * body is the page. One rule with every layout's kept folder (`kept-folder.ts`).
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {scanFolder} from '../../../src/local/index.js'
import {chapterFolder, markKeptFolders} from '../../../src/local/navigation/chapter-folders.js'
import type {NavEntry} from '../../../src/local/navigation/types.js'
import {temporaryFolders} from '../../temp-folders.js'

const temporary = temporaryFolders('chapter-folders')

afterAll(() => temporary.removeAll())

const summary = '# Summary\n\n- [Intro](intro.md)\n- [Printing](basics/printing.md)\n'

/** A book whose "Printing" chapter has no sub-chapters, with `extra` files (relative path -> text) and folders. */
async function book(extra: Record<string, string>, folders: string[] = []): Promise<string> {
  const dir = await temporary.make()
  const files = {'SUMMARY.md': summary, 'intro.md': 'Hello.\n', 'basics/printing.md': 'Print.\n', ...extra}
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), {recursive: true})
    await writeFile(path.join(dir, file), text)
  }
  for (const folder of folders) await mkdir(path.join(dir, folder), {recursive: true})
  return dir
}

async function kindOfPrinting(dir: string): Promise<string | undefined> {
  return (await scanFolder(dir)).byPath['basics/printing.md']?.kind
}

describe('a chapter without sub-chapters', () => {
  it('is a topic when its folder holds a .gitkeep (and nothing else but its permissions)', async () => {
    expect(await kindOfPrinting(await book({'basics/printing/.gitkeep': ''}))).toBe('topic')
    const permissions = {'basics/printing/.gitkeep': '', 'basics/printing/_permissions.yml': 'inherit: true\n'}
    expect(await kindOfPrinting(await book(permissions))).toBe('topic')
  })

  it('is an article without its folder, with a bare empty folder (a clone has none), or one holding anything', async () => {
    expect(await kindOfPrinting(await book({}))).toBe('article')
    expect(await kindOfPrinting(await book({}, ['basics/printing']))).toBe('article')
    expect(await kindOfPrinting(await book({'basics/printing/shot.png': 'png'}))).toBe('article')
    expect(await kindOfPrinting(await book({'basics/printing/unlisted.md': 'Else.\n'}))).toBe('article')
  })
})

describe('markKeptFolders', () => {
  it('marks the leaf chapters whose folder is empty, relative to the outline base', () => {
    const entry = (file: string | undefined, children: NavEntry[] = []): NavEntry => ({
      ...(file !== undefined ? {file} : {}),
      line: 1,
      children
    })
    const entries = [entry('a.md', [entry('a/b.md')]), entry('c.md'), entry(undefined), entry('../../d.md')]
    markKeptFolders(entries, 'book', new Set(['book/a', 'book/a/b', 'book/c', 'd']))
    expect(entries.map((e) => e.keptFolder === true)).toEqual([false, true, false, false])
    expect(entries[0]!.children[0]!.keptFolder).toBe(true)
  })

  it('names a page’s folder beside it; no folder for a path leaving the walk or a non-page', () => {
    expect(chapterFolder('', 'basics/printing.md')).toBe('basics/printing')
    expect(chapterFolder('src', './a/../b.MDX')).toBe('src/b')
    expect(chapterFolder('', '../up.md')).toBeUndefined()
    expect(chapterFolder('', 'image.png')).toBeUndefined()
  })
})

/**
 * The parts of pull's round trip that need no server: the base store (a
 * cache checked against its name, read through the trust rules, pruned),
 * the own lines of a file against its converted body, and the front matter
 * keys patched in place.
 */
import {mkdir, readdir, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {gzipSync} from 'node:zlib'
import {hasBase, pruneBases, readBase, sourceHashOf, storeBase} from '../../src/local/index.js'
import {ownLinesOf} from '../../src/sync/pull/round-trip/source-lines.js'
import {patchTitle} from '../../src/sync/pull/round-trip/title-patch.js'
import {patchPermissions} from '../../src/sync/pull/round-trip/permissions-patch.js'
import {temporaryFolders} from '../temp-folders.js'

const folders = temporaryFolders('round-trip-parts')
afterAll(() => folders.removeAll())

describe('the base store', () => {
  it('gives back a stored text by its source hash, once per content', async () => {
    const dir = await folders.make()
    const text = '---\ntitle: A\n---\n\nBody\r\n'
    storeBase(dir, text)
    storeBase(dir, text)
    expect(await readBase(dir, sourceHashOf(text))).toBe(text)
    expect(await readdir(path.join(dir, '.kbsync/bases'))).toEqual([sourceHashOf(text)])
    expect(await readBase(dir, sourceHashOf('other'))).toBeUndefined()
  })

  it('never trusts a base whose text does not hash to its name, nor one that is no base', async () => {
    const dir = await folders.make()
    const hash = sourceHashOf('the real text')
    await mkdir(path.join(dir, '.kbsync/bases'), {recursive: true})
    await writeFile(path.join(dir, '.kbsync/bases', hash), gzipSync('a planted text').toString('base64'))
    expect(await readBase(dir, hash)).toBeUndefined()
    await writeFile(path.join(dir, '.kbsync/bases', hash), 'not gzip at all')
    expect(await readBase(dir, hash)).toBeUndefined()
    expect(await readBase(dir, '../state.json')).toBeUndefined()
  })

  it('does not read a base through a link out of the folder', async () => {
    const dir = await folders.make()
    const outside = await folders.make()
    const text = 'secret'
    await writeFile(path.join(outside, 'x'), gzipSync(text).toString('base64'))
    await mkdir(path.join(dir, '.kbsync/bases'), {recursive: true})
    await symlink(path.join(outside, 'x'), path.join(dir, '.kbsync/bases', sourceHashOf(text)))
    expect(await readBase(dir, sourceHashOf(text))).toBeUndefined()
  })

  it('prunes the bases no state entry names', async () => {
    const dir = await folders.make()
    storeBase(dir, 'kept')
    storeBase(dir, 'dropped')
    pruneBases(dir, new Set([sourceHashOf('kept')]))
    expect(hasBase(dir, sourceHashOf('kept'))).toBe(true)
    expect(hasBase(dir, sourceHashOf('dropped'))).toBe(false)
  })
})

describe('own lines', () => {
  it('are the lines the body reads as the file does: not front matter, title, or expanded directives', () => {
    const text = ['---', 'title: A', '---', '# A', '', 'Para', '{{#include x.md}}', 'End'].join('\n')
    // The include expanded to two lines, both counted at line 7.
    const body = ['', '', '', '', '', 'Para', 'included one', 'included two', 'End'].join('\n')
    const own = ownLinesOf(text, body, [1, 2, 3, 4, 5, 6, 7, 7, 8])
    expect(own.covers(6, 6)).toBe(true)
    expect(own.covers(8, 8)).toBe(true)
    expect(own.covers(7, 7)).toBe(false)
    expect(own.covers(2, 2)).toBe(false)
    expect(own.covers(4, 4)).toBe(false)
    expect(own.covers(6, 8)).toBe(false)
    expect(own.fileLineOf(9)).toBe(8)
  })

  it('are not lines a site value was filled into', () => {
    const own = ownLinesOf('Version {{ site.version }}\nPlain', 'Version 1.2\nPlain', undefined)
    expect(own.covers(1, 1)).toBe(false)
    expect(own.covers(2, 2)).toBe(true)
  })
})

describe('front matter patches', () => {
  const file = ['---', 'id: intro', '# a comment', 'title: Old title', 'sidebar_label: Intro', '---', '', 'Body'].join(
    '\n'
  )

  it('change only the title line of the front matter', () => {
    expect(patchTitle(file, {from: 'front matter'}, 'New: title')).toBe(
      file.replace('title: Old title', 'title: "New: title"')
    )
    expect(patchTitle('+++\ntitle = "Old"\nweight = 2\n+++\n', {from: 'front matter'}, 'New')).toBe(
      '+++\ntitle = "New"\nweight = 2\n+++\n'
    )
  })

  it('find the block after blank lines, as the scan does (Astro and Hugo read it so)', () => {
    const blank = `\n\n${file}`
    expect(patchTitle(blank, {from: 'front matter'}, 'New')).toBe(blank.replace('title: Old title', 'title: New'))
    expect(patchPermissions(blank, {readers: [1], editors: []}, true)).toBe(
      blank.replace('sidebar_label: Intro\n', 'sidebar_label: Intro\npermissions:\n  readers: [1]\n  editors: []\n')
    )
  })

  it('change the heading the title came from, keeping its id', () => {
    expect(patchTitle('# Old {#old-id}\n\nBody', {from: 'heading', headingLine: 1}, 'New')).toBe(
      '# New {#old-id}\n\nBody'
    )
    expect(patchTitle('Old\n===\n\nBody', {from: 'heading', headingLine: 1}, 'New')).toBe('New\n===\n\nBody')
    expect(patchTitle('Body', {from: 'navigation'}, 'New')).toBeUndefined()
  })

  it('keep a heading that mirrors a navigation title equal to it (else push would publish it as body)', () => {
    expect(patchTitle('# Tuples\n\nBody', {from: 'navigation', headingLine: 1}, 'Tuples and pairs')).toBe(
      '# Tuples and pairs\n\nBody'
    )
  })

  it('replace or add the permissions block, nothing else', () => {
    const people = {readers: [1, 2], editors: [3]}
    const withBlock = file.replace(
      'sidebar_label: Intro',
      'permissions:\n  readers: [9]\n  editors: []\nsidebar_label: Intro'
    )
    expect(patchPermissions(withBlock, people, false)).toBe(
      file.replace('sidebar_label: Intro', 'permissions:\n  readers: [1, 2]\n  editors: [3]\nsidebar_label: Intro')
    )
    expect(patchPermissions(file, people, false)).toBeUndefined()
    expect(patchPermissions(file, people, true)).toBe(
      file.replace('sidebar_label: Intro\n', 'sidebar_label: Intro\npermissions:\n  readers: [1, 2]\n  editors: [3]\n')
    )
  })
})

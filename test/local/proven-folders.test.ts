/**
 * Writes deep in a folder chain (issue 32): a folder proven real is not
 * walked level by level again at each write (depth^2 lstat per write before:
 * 1,500 files down a 1,500-level chain took minutes), and a folder swapped
 * for a link after it was proven is still refused or followed by the rules
 * of `inside.ts`.
 */
import {mkdir, readdir, readFile, rename, rm, symlink} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {existsInside, writeFileInside} from '../../src/local/index.js'
import {folderAndOutside} from '../folder-beside.js'
import {temporaryFolders} from '../temp-folders.js'

const folders = temporaryFolders('proven')
afterAll(() => folders.removeAll())

describe('writes down a deep folder chain', () => {
  it('write 1,500 files down a 1,500-level chain in seconds', async () => {
    const {dir} = await folderAndOutside(folders)
    const levels: string[] = []
    const started = performance.now()
    for (let level = 0; level < 1500; level++) {
      levels.push('a')
      writeFileInside(dir, [...levels, 'p.md'].join('/'), `level ${level}`)
    }
    // About 230 s before (each write lstat-ed every level above it); well under a second now.
    expect(performance.now() - started).toBeLessThan(20_000)
    expect(await readFile(path.join(dir, ...levels, 'p.md'), 'utf8')).toBe('level 1499')
    expect(existsInside(dir, [...levels, 'p.md'].join('/'))).toBe(true)
  }, 60_000)
})

describe('a folder proven real, then swapped', () => {
  it('for a link that leaves the folder (the real folder moved out to it): refused, nothing written outside', async () => {
    const {dir, outside} = await folderAndOutside(folders)
    writeFileInside(dir, 'a/b/c/one.md', 'one')
    await rename(path.join(dir, 'a', 'b'), path.join(outside, 'b'))
    await symlink(path.join(outside, 'b'), path.join(dir, 'a', 'b'))
    expect(() => writeFileInside(dir, 'a/b/c/two.md', 'two')).toThrow(/outside the folder/)
    expect(await readdir(path.join(outside, 'b', 'c'))).toEqual(['one.md'])
  })

  it('for a link that stays inside: followed, the file lands in the folder it names', async () => {
    const {dir} = await folderAndOutside(folders)
    writeFileInside(dir, 'a/b/one.md', 'one')
    await mkdir(path.join(dir, 'real'))
    await rm(path.join(dir, 'a', 'b'), {recursive: true})
    await symlink(path.join(dir, 'real'), path.join(dir, 'a', 'b'))
    writeFileInside(dir, 'a/b/two.md', 'two')
    expect(await readdir(path.join(dir, 'real'))).toEqual(['two.md'])
  })

  it('removed: made again as a real folder', async () => {
    const {dir} = await folderAndOutside(folders)
    writeFileInside(dir, 'a/b/one.md', 'one')
    await rm(path.join(dir, 'a'), {recursive: true})
    expect(existsInside(dir, 'a/b/one.md')).toBe(false)
    writeFileInside(dir, 'a/b/two.md', 'two')
    expect(await readdir(path.join(dir, 'a', 'b'))).toEqual(['two.md'])
  })
})

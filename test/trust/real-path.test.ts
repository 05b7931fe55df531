/**
 * Reads deep in a folder chain (issue 32): the real path of a file was
 * glibc's `realpath`, a lookup of every prefix (depth^2: 260 ms a read at
 * 1,500 levels); `realPathSync` gives the same answer with one lookup of the
 * whole path, links resolved as before.
 */
import {mkdirSync, realpathSync, symlinkSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {readInsideSync} from '../../src/trust/index.js'
import {realPathSync} from '../../src/trust/real-path.js'
import {temporaryFolders} from '../temp-folders.js'

const folders = temporaryFolders('real-path')
afterAll(() => folders.removeAll())

describe('realPathSync', () => {
  it('gives what realpath gives, through links to files and folders, and throws where it throws', async () => {
    const root = await folders.make()
    mkdirSync(path.join(root, 'a', 'b'), {recursive: true})
    writeFileSync(path.join(root, 'a', 'b', 'f.md'), 'x')
    symlinkSync(path.join(root, 'a'), path.join(root, 'to-a'))
    symlinkSync(path.join(root, 'a', 'b', 'f.md'), path.join(root, 'to-f.md'))
    symlinkSync(path.join(root, 'gone'), path.join(root, 'broken'))
    for (const rel of ['a/b/f.md', 'to-a/b/f.md', 'to-f.md', 'to-a', 'a/b', '.', 'to-a/../a/b/f.md'])
      expect(realPathSync(path.join(root, rel))).toBe(realpathSync.native(path.join(root, rel)))
    for (const rel of ['broken', 'nothing', 'a/b/f.md/more', 'broken/x'])
      expect(() => realPathSync(path.join(root, rel))).toThrow()
    expect(realPathSync('/')).toBe('/')
  })

  it('reads 1,500 files down a 1,500-level chain in seconds', async () => {
    const root = await folders.make()
    const files: string[] = []
    let at = root
    for (let level = 0; level < 1500; level++) {
      at = path.join(at, 'a')
      mkdirSync(at)
      writeFileSync(path.join(at, 'p.md'), `level ${level}`)
      files.push(path.join(at, 'p.md'))
    }
    const started = performance.now()
    for (const file of files) readInsideSync(file, {boundary: root, maxBytes: 100})
    // About 390 s before (realpath looked up each prefix of each path).
    expect(performance.now() - started).toBeLessThan(30_000)
    expect(new TextDecoder().decode(readInsideSync(files.at(-1)!, {boundary: root, maxBytes: 100}))).toBe('level 1499')
  }, 120_000)
})

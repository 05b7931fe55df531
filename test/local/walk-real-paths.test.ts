/**
 * The folder walk names each folder's real path with one lookup of the
 * whole path (`trust/real-path.ts`), not with `realpath`, which resolves
 * level by level: a folder chain 1,400 deep cost 0.5 s a folder there, so a
 * push of it was cubic in its depth (45 s of CPU, 12 s after).
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import ignore from 'ignore'
import {afterAll, describe, expect, it, vi} from 'vitest'
import type {Diagnostic} from '../../src/local/diagnostic.js'
import {walkFolder} from '../../src/local/walk.js'
import {temporaryFolders} from '../temp-folders.js'

const realpathCalls: string[] = []
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof import('node:fs/promises')>()
  const realpath = (file: Parameters<typeof fs.realpath>[0]) => {
    realpathCalls.push(String(file))
    return fs.realpath(file)
  }
  return {...fs, realpath, default: {...fs, realpath}}
})

const folders = temporaryFolders('walk-real-paths')
afterAll(() => folders.removeAll())

/** A folder chain `depth` deep with a page at each level. */
async function chain(depth: number): Promise<string> {
  const root = await folders.make()
  let at = root
  for (let level = 0; level < depth; level++) {
    at = path.join(at, 'a')
    await mkdir(at)
    await writeFile(path.join(at, 'p.md'), `# Page ${level}\n`)
  }
  return root
}

describe('the folder walk', () => {
  it('resolves no folder level by level, however deep the chain', async () => {
    const lookups: number[] = []
    for (const depth of [5, 40]) {
      const root = await chain(depth)
      realpathCalls.length = 0
      const diagnostics: Diagnostic[] = []
      const walked = await walkFolder(root, ignore(), diagnostics)
      let found = 0
      for (const pending = [walked]; pending.length > 0;) {
        const dir = pending.pop()!
        found += dir.files.length
        pending.push(...dir.dirs)
      }
      expect(found).toBe(depth)
      lookups.push(realpathCalls.filter((file) => file.startsWith(path.join(root, 'a'))).length)
    }
    expect(lookups).toEqual([0, 0])
  })
})

import {execFileSync} from 'node:child_process'
import {mkdir, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {readInside, readInsideSync, ReadRefusedError, type ReadRefusal} from '../../src/trust/index.js'
import {temporaryFolders} from '../temp-folders.js'

const folders = temporaryFolders('trust-read')
afterAll(() => folders.removeAll())

/** The reason `read` is refused for, or 'read' when it is not. */
async function outcome(read: () => Promise<unknown> | unknown): Promise<ReadRefusal | 'read'> {
  try {
    await read()
    return 'read'
  } catch (error) {
    if (error instanceof ReadRefusedError) return error.reason
    throw error
  }
}

function hasMkfifo(): boolean {
  try {
    execFileSync('mkfifo', ['--version'], {stdio: 'ignore'})
    return true
  } catch {
    return false
  }
}

describe('readInside', () => {
  it('reads a regular file inside, through a link that stays inside', async () => {
    const root = await folders.make()
    await writeFile(path.join(root, 'a.txt'), 'hello')
    await symlink('a.txt', path.join(root, 'link.txt'))
    expect((await readInside('link.txt', {boundary: root, maxBytes: 5})).toString()).toBe('hello')
    expect(readInsideSync(path.join(root, 'a.txt'), {boundary: root, maxBytes: 5}).toString()).toBe('hello')
  })

  it('refuses a link out, a folder, a missing file, a file over the limit', async () => {
    const outside = await folders.make()
    const root = await folders.make()
    await writeFile(path.join(outside, 'secret'), 'token')
    await symlink(path.join(outside, 'secret'), path.join(root, 'out'))
    await mkdir(path.join(root, 'dir'))
    await writeFile(path.join(root, 'big'), 'x'.repeat(11))
    const limits = {boundary: root, maxBytes: 10}
    for (const read of [readInside, readInsideSync]) {
      expect(await outcome(() => read('out', limits))).toBe('outside')
      expect(await outcome(() => read('../' + path.basename(outside) + '/secret', limits))).toBe('outside')
      expect(await outcome(() => read('dir', limits))).toBe('not-a-file')
      expect(await outcome(() => read('none', limits))).toBe('missing')
      expect(await outcome(() => read('big', limits))).toBe('too-large')
    }
  })

  it.runIf(hasMkfifo())('refuses a FIFO at once', async () => {
    const root = await folders.make()
    execFileSync('mkfifo', [path.join(root, 'pipe')])
    expect(await outcome(() => readInside('pipe', {boundary: root, maxBytes: 10}))).toBe('not-a-file')
    expect(await outcome(() => readInsideSync('pipe', {boundary: root, maxBytes: 10}))).toBe('not-a-file')
  })
})

describe('a boundary that is not there yet (pull into a new folder)', () => {
  it('holds no file: the read is refused as missing, not thrown as ENOENT', async () => {
    const gone = path.join(await folders.make(), 'not-yet')
    expect(await outcome(() => readInside('.kbsyncignore', {boundary: gone, maxBytes: 10}))).toBe('missing')
    expect(await outcome(() => readInsideSync('.kbsyncignore', {boundary: gone, maxBytes: 10}))).toBe('missing')
  })
})

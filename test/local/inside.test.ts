/**
 * `local/inside.ts`, the one helper every write of kbsync goes through: the
 * rule for links (leaving the folder: refused by name; staying inside:
 * followed, or replaced at the name being written), path checks, and no
 * temporary file left by a failed write.
 */
import {mkdir, readdir, readFile, readlink, symlink, writeFile} from 'node:fs/promises'
import {closeSync, writeSync} from 'node:fs'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {
  checkWritesInside,
  ensureDirInside,
  openAppendInside,
  removeInside,
  renameInside,
  WriteOutsideError,
  writeFileInside
} from '../../src/local/index.js'
import {folderAndOutside} from '../folder-beside.js'
import {temporaryFolders} from '../temp-folders.js'

const folders = temporaryFolders('inside')
afterAll(() => folders.removeAll())

const place = () => folderAndOutside(folders)

describe('writeFileInside', () => {
  it('creates the folders and writes the file, leaving no temporary file', async () => {
    const {dir} = await place()
    writeFileInside(dir, 'a/b/c.md', 'one')
    writeFileInside(dir, 'a/b/c.md', 'two')
    expect(await readFile(path.join(dir, 'a/b/c.md'), 'utf8')).toBe('two')
    expect(await readdir(path.join(dir, 'a/b'))).toEqual(['c.md'])
  })

  it('writes a file whose name takes all 255 bytes a name may (its temporary name is cut to fit)', async () => {
    const {dir} = await place()
    // 'é' is two bytes: 126 of them and '.md' make 255, and so does a name of 252 ASCII letters.
    for (const name of [`${'é'.repeat(126)}.md`, `${'a'.repeat(252)}.md`]) {
      expect(Buffer.byteLength(name)).toBe(255)
      writeFileInside(dir, `long/${name}`, 'one')
      writeFileInside(dir, `long/${name}`, 'two')
      expect(await readFile(path.join(dir, 'long', name), 'utf8')).toBe('two')
    }
    expect((await readdir(path.join(dir, 'long'))).length).toBe(2)
  })

  it('refuses a link halfway down that leaves the folder, naming it, and writes nothing', async () => {
    const {dir, outside} = await place()
    await mkdir(path.join(dir, 'a'))
    await symlink(outside, path.join(dir, 'a', 'b'))
    expect(() => writeFileInside(dir, 'a/b/c/d.md', 'x')).toThrow(
      `${path.join(dir, 'a', 'b')} is a symbolic link to ${outside}, outside the folder: kbsync does not write through links that leave the folder; replace it with a real folder`
    )
    expect(await readdir(outside)).toEqual([])
  })

  it('refuses a broken link, naming where it points', async () => {
    const {dir, outside} = await place()
    await symlink(path.join(outside, 'gone'), path.join(dir, 'assets'))
    expect(() => writeFileInside(dir, 'assets/x.png', 'x')).toThrow(
      `${path.join(dir, 'assets')} is a symbolic link to ${path.join(outside, 'gone')}, which does not exist`
    )
    expect(await readdir(outside)).toEqual([])
  })

  it('follows a folder link that stays inside, and replaces (never writes through) a link at the name it writes', async () => {
    const {dir} = await place()
    await mkdir(path.join(dir, 'real'))
    await symlink(path.join(dir, 'real'), path.join(dir, 'alias'))
    writeFileInside(dir, 'alias/page.md', 'via alias')
    expect(await readFile(path.join(dir, 'real', 'page.md'), 'utf8')).toBe('via alias')
    await writeFile(path.join(dir, 'b.md'), 'B')
    await symlink(path.join(dir, 'b.md'), path.join(dir, 'a.md'))
    writeFileInside(dir, 'a.md', 'A')
    expect(await readFile(path.join(dir, 'b.md'), 'utf8')).toBe('B')
    expect(await readFile(path.join(dir, 'a.md'), 'utf8')).toBe('A')
  })

  it('refuses a link at the name it writes when that link leaves the folder', async () => {
    const {dir, outside} = await place()
    await writeFile(path.join(outside, 'victim'), 'kept')
    await symlink(path.join(outside, 'victim'), path.join(dir, 'x.remote.md'))
    expect(() => writeFileInside(dir, 'x.remote.md', 'remote')).toThrow(WriteOutsideError)
    expect(await readFile(path.join(outside, 'victim'), 'utf8')).toBe('kept')
    expect(await readlink(path.join(dir, 'x.remote.md'))).toBe(path.join(outside, 'victim'))
  })

  it('leaves no temporary file when the rename fails', async () => {
    const {dir} = await place()
    await mkdir(path.join(dir, 'taken.md', 'inside'), {recursive: true})
    expect(() => writeFileInside(dir, 'taken.md', 'text')).toThrow()
    expect(await readdir(dir)).toEqual(['taken.md'])
  })

  it('refuses paths that are not inside the folder', async () => {
    const {dir} = await place()
    expect(() => writeFileInside(dir, '../x.md', 'x')).toThrow('is not a path inside it')
    expect(() => writeFileInside(dir, '/etc/x.md', 'x')).toThrow('is not a path inside it')
    expect(() => writeFileInside(dir, '', 'x')).toThrow('is not a path inside it')
  })
})

describe('checkWritesInside', () => {
  it('writes nothing, accepts levels still to be made, and names every link that leaves in one error', async () => {
    const {dir, outside} = await place()
    await symlink(outside, path.join(dir, 'one'))
    await symlink(outside, path.join(dir, 'two'))
    expect(() => checkWritesInside(dir, ['new/deep/file.md', '.kbsync/state.json'])).not.toThrow()
    let error: WriteOutsideError | undefined
    try {
      checkWritesInside(dir, ['one/a.md', 'one/b.md', 'two/_assets/x', 'fine.md'])
    } catch (caught) {
      error = caught as WriteOutsideError
    }
    expect(error?.links.map((link) => link.link)).toEqual([path.join(dir, 'one'), path.join(dir, 'two')])
    expect((await readdir(dir)).sort()).toEqual(['one', 'two'])
  })
})

describe('ensureDirInside, renameInside, removeInside, openAppendInside', () => {
  it('returns the real folder, moves and removes inside, and removes a link rather than what it points to', async () => {
    const {dir, outside} = await place()
    expect(ensureDirInside(dir, 'x/y')).toBe(path.join(dir, 'x', 'y'))
    await writeFile(path.join(dir, 'x', 'y', 'f.md'), 'f')
    renameInside(dir, 'x/y/f.md', 'z/g.md')
    expect(await readFile(path.join(dir, 'z', 'g.md'), 'utf8')).toBe('f')
    await writeFile(path.join(outside, 'keep'), 'k')
    await symlink(outside, path.join(dir, 'link'))
    removeInside(dir, 'link')
    expect(await readdir(outside)).toEqual(['keep'])
    expect(() => removeInside(dir, 'link/keep')).not.toThrow()
    await symlink(outside, path.join(dir, 'link'))
    expect(() => removeInside(dir, 'link/keep')).toThrow('outside the folder')
    expect(await readdir(outside)).toEqual(['keep'])
  })

  it('appends to a real file and refuses any link at its name', async () => {
    const {dir} = await place()
    const fd = openAppendInside(dir, '.kbsync/state.journal')
    writeSync(fd, 'line\n')
    closeSync(fd)
    expect(await readFile(path.join(dir, '.kbsync', 'state.journal'), 'utf8')).toBe('line\n')
    await symlink(path.join(dir, '.kbsync', 'state.journal'), path.join(dir, '.kbsync', 'other.journal'))
    expect(() => openAppendInside(dir, '.kbsync/other.journal')).toThrow('kbsync appends only to real files')
  })
})

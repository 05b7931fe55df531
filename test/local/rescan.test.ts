/**
 * The rescanner's law: after any edits, renames and deletions, a rescan
 * told the changed paths equals a fresh `scanFolder` of the same folder
 * (trees aside: they are a rendering cache, parsed again on demand).
 */
import {mkdir, rename, rm, utimes, writeFile} from 'node:fs/promises'
import path from 'node:path'
import fc from 'fast-check'
import {afterAll, describe, expect, it} from 'vitest'
import {scanFolder, type ScanResult} from '../../src/local/index.js'
import {createRescanner} from '../../src/local/rescan.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

const folders = temporaryFolders('rescan')
afterAll(() => folders.removeAll())

/** The scan as data: everything but the parsed trees. */
function comparable(scan: ScanResult): unknown {
  return JSON.parse(JSON.stringify(scan, (key, value: unknown) => (key === 'tree' ? undefined : value)))
}

const base: Record<string, string> = {
  'intro.md': '# Introduction\n\nSee [the guide](guides/setup.md) and ![logo](img/logo.png).\n',
  'guides/_index.md': '---\ntitle: Guides\n---\n\nAll the guides.\n',
  'guides/setup.md': '# Setup\n\nRun it. Back to [the start](../intro.md#top).\n\n> [!NOTE]\n> A note.\n',
  'guides/tune.md': '---\ntitle: Tuning\n---\n\nTune [setup](setup.md) with a [broken link](nowhere.md).\n',
  'guides/_permissions.yml': 'inherit: true\nreaders: [1]\n',
  'img/logo.png': 'PNG one'
}

/** One change to the folder: what it does, and the paths it changed (as a watcher names them). */
type Change = (dir: string, files: string[]) => Promise<string[]>

const pick = (files: string[], index: number) => files[index % files.length]!
const documents = (files: string[]) => files.filter((file) => file.endsWith('.md'))

const change = fc.oneof(
  fc.tuple(fc.nat(), fc.string({maxLength: 12})).map(([index, words]): Change => async (dir, files) => {
    const file = pick(documents(files), index)
    await writeFile(path.join(dir, file), `# Edited ${file}\n\nNow ${JSON.stringify(words)} [to intro](/intro.md).\n`)
    return [file]
  }),
  fc.nat().map((index): Change => async (dir, files) => {
    const file = pick(documents(files), index)
    const moved = `moved/${path.posix.basename(file)}`
    await mkdir(path.join(dir, 'moved'), {recursive: true})
    await rename(path.join(dir, file), path.join(dir, moved))
    return [file, moved]
  }),
  fc.nat().map((index): Change => async (dir, files) => {
    const file = pick(files, index)
    await rm(path.join(dir, file))
    return [file]
  }),
  fc.nat().map((index): Change => async (dir) => {
    const file = `new-${index % 5}.md`
    await writeFile(
      path.join(dir, file),
      `---\ntitle: New ${index}\n---\n\nLinks to [setup](guides/setup.md) and [tune](guides/tune.md).\n`
    )
    return [file]
  }),
  fc.nat().map((): Change => async (dir) => {
    await writeFile(path.join(dir, 'img/logo.png'), `PNG ${Math.random()}`)
    return ['img/logo.png']
  }),
  fc.boolean().map((hide): Change => async (dir) => {
    await writeFile(path.join(dir, '.kbsyncignore'), hide ? 'guides/tune.md\n' : '')
    return ['.kbsyncignore']
  }),
  fc.nat().map((): Change => async (dir) => {
    await rm(path.join(dir, 'guides'), {recursive: true, force: true})
    return ['guides']
  })
)

async function filesOf(dir: string, scan: ScanResult): Promise<string[]> {
  const assets = Object.values(scan.assets).map((asset) => asset.path)
  return [
    ...new Set([...Object.values(scan.byPath).flatMap((node) => (node.file ? [node.file] : [])), ...assets])
  ].sort()
}

describe('createRescanner', () => {
  it('equals a fresh scan after any sequence of edits, renames, deletions and additions', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, {minLength: 1, maxLength: 6}), async (changes) => {
        const dir = await folders.make()
        await writeFiles(dir, base)
        const rescanner = createRescanner(dir)
        let scan = await rescanner.scan()
        expect(comparable(scan)).toEqual(comparable(await scanFolder(dir)))
        for (const apply of changes) {
          const files = await filesOf(dir, scan)
          if (files.length === 0) break
          const changed = await apply(dir, files)
          scan = await rescanner.scan(changed)
          expect(comparable(scan)).toEqual(comparable(await scanFolder(dir)))
        }
        await rm(dir, {recursive: true, force: true})
      }),
      {numRuns: 25}
    )
  })

  it('converts only the changed body again, and reads only the changed file', async () => {
    const dir = await folders.make()
    await writeFiles(dir, base)
    const rescanner = createRescanner(dir)
    const first = await rescanner.scan()
    // Parsed bodies keep their tree; a body reused from the last scan has none (it is not parsed again).
    expect(first.byPath['guides/setup.md']!.tree).toBeDefined()
    await writeFile(
      path.join(dir, 'intro.md'),
      '# Introduction\n\nNow with a [[wiki]] and [the guide](guides/setup.md).\n'
    )
    const second = await rescanner.scan(['intro.md'])
    expect(second.byPath['guides/setup.md']!.tree).toBeUndefined()
    expect(second.byPath['intro.md']!.tree).toBeDefined()
    expect(second.byPath['intro.md']!.body).toContain('[[wiki]]')
  })

  it('reads a file again when the watcher names it, even when its size and time did not move', async () => {
    const dir = await folders.make()
    await writeFiles(dir, {'a.md': '# A\n\nfirst\n'})
    // A save within the clock's resolution keeps the time; the same length keeps the size.
    await utimes(path.join(dir, 'a.md'), 1_000_000, 1_000_000)
    const rescanner = createRescanner(dir)
    await rescanner.scan()
    await writeFile(path.join(dir, 'a.md'), '# A\n\nsecnd\n')
    await utimes(path.join(dir, 'a.md'), 1_000_000, 1_000_000)
    expect((await rescanner.scan()).byPath['a.md']!.body).toContain('first')
    expect((await rescanner.scan(['a.md'])).byPath['a.md']!.body).toContain('secnd')
  })
})

/**
 * What `kbsync watch` prints for a save, through the built CLI against the
 * local server: the push's result with the names of what it wrote, and the
 * messages of the saved file only; the other files' warnings were said by
 * the first push and are not said again.
 */
import {rename, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startServer} from '../../src/server/index.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'
import {spawnWatch, waitFor} from './helpers.js'

const folders = temporaryFolders('watch-saved')
let server: Awaited<ReturnType<typeof startServer>>

beforeAll(async () => {
  server = await startServer({port: 0})
})

afterAll(async () => {
  await server?.close()
  await folders.removeAll()
})

/** A page whose `####` heading the dialect cannot hold: one warning at line 5. */
const page = (title: string, text: string) => `# ${title}\n\n${text}\n\n#### Deep\n\nbody\n`

describe('kbsync watch output after a save', () => {
  it("names what the push wrote and shows the saved file's messages only", async () => {
    const dir = await folders.make()
    await writeFiles(dir, {
      'alpha.md': page('Alpha', 'First.'),
      'beta.md': page('Beta', 'First.'),
      'guide/gamma.md': page('Gamma', 'First.')
    })
    const {child, out, err, explained} = spawnWatch([dir, '--debounce', '100', '--verbose'], server)
    try {
      await waitFor('the first push', () => /pushed: .*created/.test(out()), 20_000).catch(explained)
      // The first push says every file's warning.
      for (const file of ['alpha.md', 'beta.md', 'guide/gamma.md']) expect(err()).toContain(file)
      const [outBefore, errBefore] = [out().length, err().length]
      await writeFile(path.join(dir, 'alpha.md'), page('Alpha', 'Second, saved while watching.'))
      await waitFor('the pushed save', () => /pushed: 1 updated/.test(out().slice(outBefore)), 15_000).catch(explained)
      const [savedOut, savedErr] = [out().slice(outBefore), err().slice(errBefore)]
      expect(savedOut).toMatch(/pushed: 1 updated \(1 write\): alpha\.md; watching/)
      expect(savedErr).toMatch(/^alpha\.md:5(:\d+)?: warning/m)
      expect(savedErr).not.toMatch(/beta\.md|gamma\.md/)

      // A move is one request, named by the file's new path; only the moved file's message is said.
      const [outMoved, errMoved] = [out().length, err().length]
      await rename(path.join(dir, 'beta.md'), path.join(dir, 'guide/beta.md'))
      await waitFor('the pushed move', () => /pushed: 1 moved/.test(out().slice(outMoved)), 15_000).catch(explained)
      expect(out().slice(outMoved)).toMatch(/pushed: 1 moved \(1 write\): guide\/beta\.md; watching/)
      expect(err().slice(errMoved), out().slice(outMoved) + err().slice(errMoved)).toMatch(
        /^guide\/beta\.md:5(:\d+)?: warning/m
      )
      expect(err().slice(errMoved)).not.toMatch(/alpha\.md|gamma\.md/)
    } finally {
      const exited = new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))
      child.kill('SIGINT')
      await exited
    }
  }, 60_000)
})

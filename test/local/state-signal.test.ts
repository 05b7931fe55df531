/**
 * A signal that lands while the state file is being written never leaves it
 * truncated: a child process rewrites a large state over and over (the whole
 * file: a temporary file renamed into place) and is killed by SIGTERM with
 * no handler (the process dies wherever it is, as before kbsync's own
 * handler is installed, or past its grace) at several moments; the state
 * then always parses, and what the kill left is a temporary file the next
 * run recognises as kbsync's (`stale-temp.ts`).
 */
import {spawn} from 'node:child_process'
import {readdir, readFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {builtFile} from '../built.js'
import {kbsyncTemp} from '../../src/local/stale-temp.js'
import {temporaryFolders} from '../temp-folders.js'

const folders = temporaryFolders('state-signal')
afterAll(() => folders.removeAll())

/** Rewrites a state of 20,000 entries until killed, saying "writing" once it started. */
const writer = `
const {StateStore, emptyState} = await import(${JSON.stringify(builtFile('src/local/index.js'))})
const state = emptyState(null)
for (let i = 0; i < 20000; i++) state.items['topic-' + (i % 50) + '/page-' + i + '.md'] = {id: 'id' + i, type: 'article', title: 'Page ' + i, remoteHash: 'h'.repeat(64)}
const store = new StateStore(process.argv[1], state)
await store.save()
process.stdout.write('writing\\n')
for (let round = 0; ; round++) { state.items['round.md'] = {id: 'r' + round, type: 'article', title: 'Round ' + round}; await store.save() }
`

function killWhileWriting(dir: string, afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', writer, dir], {
      stdio: ['ignore', 'pipe', 'inherit']
    })
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGTERM'), afterMs))
    child.on('exit', () => resolve())
  })
}

describe('a signal while the state is written', () => {
  it('never leaves the state truncated; a temporary file it leaves is recognised as one', async () => {
    const dir = await folders.make()
    for (const afterMs of [0, 7, 23, 61, 150]) {
      await killWhileWriting(dir, afterMs)
      const text = await readFile(path.join(dir, '.kbsync', 'state.json'), 'utf8')
      const state = JSON.parse(text) as {items: Record<string, unknown>}
      expect(Object.keys(state.items).length).toBeGreaterThanOrEqual(20000)
      for (const name of await readdir(path.join(dir, '.kbsync')))
        if (name !== 'state.json' && name !== 'state.journal') expect(kbsyncTemp(name, '.kbsync'), name).toBeDefined()
    }
  }, 120_000)
})

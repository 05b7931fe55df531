import {mkdtemp, rm, utimes, writeFile, appendFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {filesStable} from '../../src/cli/watch/index.js'

const temporary: string[] = []
afterAll(async () => {
  for (const dir of temporary) await rm(dir, {recursive: true, force: true})
})

async function folder(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-stable-'))
  temporary.push(dir)
  return dir
}

describe('filesStable', () => {
  it('takes a file untouched for the stability time at once, without waiting', async () => {
    const dir = await folder()
    await writeFile(path.join(dir, 'a.md'), 'text')
    const old = new Date(Date.now() - 5000)
    await utimes(path.join(dir, 'a.md'), old, old)
    const started = performance.now()
    expect(await filesStable(dir, ['a.md', 'gone.md'], 400)).toBe(true)
    expect(performance.now() - started).toBeLessThan(300)
  })

  it('waits out the rest of the quiet time for a fresh file, and refuses one still being written', async () => {
    const dir = await folder()
    await writeFile(path.join(dir, 'fresh.md'), 'text')
    const started = performance.now()
    expect(await filesStable(dir, ['fresh.md'], 300)).toBe(true)
    expect(performance.now() - started).toBeGreaterThanOrEqual(200)

    await writeFile(path.join(dir, 'growing.md'), 'a')
    const writer = setInterval(() => void appendFile(path.join(dir, 'growing.md'), 'more'), 30)
    try {
      expect(await filesStable(dir, ['growing.md'], 300)).toBe(false)
    } finally {
      clearInterval(writer)
    }
  })
})

/**
 * A cache file of `.kbsync/` (the body cache here) is written and sealed
 * entry by entry: the references of a link-heavy folder make tens of
 * megabytes of text, which the save held as one string, copied for the
 * seal and again for the file, at the scan's peak. The file reads back
 * sealed, byte for byte the text the one string gave.
 */
import {readFile} from 'node:fs/promises'
import {afterAll, afterEach, describe, expect, it, vi} from 'vitest'
import {BodyCache, bodyCachePath, type BodyFacts} from '../../src/local/index.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

const folders = temporaryFolders('sealed-cache')
afterAll(() => folders.removeAll())
afterEach(() => vi.restoreAllMocks())

/** Facts of a body with `links` references to `../guides/page-N.md`, and `text` in its one message. */
function factsOf(links: number, text = 'a message'): BodyFacts {
  return {
    messages: [{message: text, line: 1}],
    refs: Array.from({length: links}, (_, n) => ({
      kind: 'link' as const,
      url: `../guides/page-${n}.md`,
      line: n + 3,
      column: 3
    })),
    urls: []
  }
}

async function cacheFolder(): Promise<string> {
  const dir = await folders.make()
  await writeFiles(dir, {'.kbsync/.keep': ''})
  return dir
}

describe('a sealed cache file', () => {
  it('is saved entry by entry: no string of the whole text', async () => {
    const dir = await cacheFolder()
    const cache = await BodyCache.load(dir)
    for (let body = 0; body < 400; body++) cache.set(`key-${body}`, factsOf(50))
    const stringify = vi.spyOn(JSON, 'stringify')
    cache.save()
    const longest = Math.max(...stringify.mock.results.map((result) => String(result.value ?? '').length))
    stringify.mockRestore()
    const text = await readFile(bodyCachePath(dir), 'utf8')
    // 400 entries of some 3 KB: the file is over 1 MB, the longest text made at once one entry's.
    expect(text.length).toBeGreaterThan(1_000_000)
    expect(longest).toBeLessThan(10_000)
    const again = await BodyCache.load(dir)
    expect(again.get('key-399')).toEqual(factsOf(50))
  })

  it('is the text one JSON.stringify of its entries gives, and reads back sealed', async () => {
    const dir = await cacheFolder()
    const cache = await BodyCache.load(dir)
    const entries = {first: factsOf(2), 'sec"ond': factsOf(0, 'ünïcode 😀 text')}
    for (const [key, facts] of Object.entries(entries)) cache.set(key, facts)
    cache.save()
    const text = await readFile(bodyCachePath(dir), 'utf8')
    expect(text.endsWith(`,"bodies":${JSON.stringify(entries)}}`)).toBe(true)
    const again = await BodyCache.load(dir)
    expect(again.get('sec"ond')).toEqual(entries['sec"ond'])
  })

  it('reads back sealed when a character outside the BMP straddles the slices the seal is read in', async () => {
    const dir = await cacheFolder()
    const cache = await BodyCache.load(dir)
    // The entries' text is `{"k":{"messages":[{"message":"aaa…😀…`: the emoji's first half is its 2^20th character.
    const before = '{"k":{"messages":[{"message":"'.length
    const message = 'a'.repeat(2 ** 20 - 1 - before) + '😀 after'
    cache.set('k', factsOf(0, message))
    cache.save()
    const again = await BodyCache.load(dir)
    expect(again.get('k')?.messages[0]?.message).toBe(message)
  })

  it('a changed byte fails the seal: the file is not read', async () => {
    const dir = await cacheFolder()
    const cache = await BodyCache.load(dir)
    cache.set('k', factsOf(3))
    cache.save()
    const text = await readFile(bodyCachePath(dir), 'utf8')
    await writeFiles(dir, {'.kbsync/body-cache.json': text.replace('page-2.md', 'page-9.md')})
    expect((await BodyCache.load(dir)).get('k')).toBeUndefined()
  })
})

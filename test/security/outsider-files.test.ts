/**
 * Issue 32, attacks by an outsider's repository: a text file of a gigabyte
 * (a sparse file costs no disk) is named as too large, with its size, and
 * nothing of it past its head is read; the push exits 2 with every other
 * problem reported, writes nothing, and the run stays within memory. Before:
 * the scan read the whole file and failed with `Cannot create a string
 * longer than 0x1fffffe8 characters`, naming no file. And a repository
 * config keyed `constructor`, `toString` or `__proto__` is refused as an
 * unknown key (before: "is not allowed in a config file: function Object()
 * { [native code] }", or `[object Object]`).
 */
import {truncate, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {useLocalServer} from '../e2e/local-server.js'
import {cli} from '../e2e/push-helpers.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

const local = useLocalServer()
const temp = temporaryFolders('outsider')
afterAll(() => temp.removeAll())

describe('a text file of a gigabyte in the folder', () => {
  it('is an error naming the file and its size; nothing is written', async () => {
    const dir = await temp.make()
    await writeFiles(dir, {'fine.md': '# Fine\n\nA page.\n', 'guide/intro.md': '# Intro\n\nText.\n'})
    const huge = path.join(dir, 'guide/huge.md')
    await writeFile(huge, '---\ntitle: Huge\n---\n\n# Huge\n\n')
    await truncate(huge, 2 ** 30)
    const before = local.server.items().length
    const heapBefore = process.memoryUsage().arrayBuffers
    const push = await cli(['push', dir, '--broken-links=warn'], local.env)
    expect(process.memoryUsage().arrayBuffers - heapBefore).toBeLessThan(256 * 1048576)
    expect(push.code, push.err).toBe(2)
    expect(push.err).toMatch(
      /guide\/huge\.md:1: error: The file is 1024\.0 MB; kbsync reads text files of at most 8 MB .*\[article-too-large\]/
    )
    expect(push.err).not.toMatch(/Cannot create a string|RangeError|ERR_FS_FILE_TOO_LARGE/)
    expect(local.server.items().length).toBe(before)
  })

  it('just under the limit, a large article is still named by its own size', async () => {
    const dir = await temp.make()
    await writeFiles(dir, {'big.md': '# Big\n\n' + 'word '.repeat(1_400_000) + '\n'})
    const plan = await cli(['plan', dir], local.env)
    expect(plan.code, plan.err).toBe(2)
    expect(plan.err).toMatch(/big\.md:1: error: The article is 6\.7 MB; the limit is 5 MB .*\[article-too-large\]/)
  })
})

describe('a repository config whose keys are names of every object', () => {
  it('names the key as unknown, not the source of Object', async () => {
    const dir = await temp.make()
    await writeFiles(dir, {'page.md': '# Page\n\nText.\n'})
    for (const key of ['constructor', 'toString', '__proto__']) {
      const config = path.join(dir, `${key}.json`)
      await writeFile(config, `{"${key}": {"apiUrl": "http://127.0.0.1:9/v4"}}`)
      const plan = await cli(['plan', dir], {...local.env, KBSYNC_CONFIG: config})
      expect(plan.code, plan.err).toBe(2)
      expect(plan.err).toContain(`unknown key "${key}"`)
      expect(plan.err).not.toMatch(/native code|\[object Object\]/)
    }
  })
})

/**
 * A no-op pull (and a no-op push) parses no front matter block: each one's
 * facts come from the sealed front matter cache, by the block's text. An
 * edit of a block, even one that keeps the file's size and time stamps, is
 * a new text: it is parsed, pull keeps it, push sends it. Counted at the
 * one door every YAML read goes through (`trust/yaml.ts`), end to end
 * through the CLI against the real local server.
 */
import {mkdtemp, readdir, readFile, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it, vi} from 'vitest'
import {generateScaleTree} from '../../bench/scale-tree.js'
import {useLocalServer} from './local-server.js'
import {rewriteKeepingStamps} from './edit-in-place.js'
import {cli} from './push-helpers.js'

const reads = vi.hoisted(() => ({yaml: 0}))

vi.mock('../../src/trust/index.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/trust/index.js')>()
  return {
    ...actual,
    readYaml: (...args: Parameters<typeof actual.readYaml>) => {
      reads.yaml++
      return actual.readYaml(...args)
    }
  }
})

const local = useLocalServer()
const folders: string[] = []
afterAll(async () => {
  for (const dir of folders) await rm(dir, {recursive: true, force: true})
})

function counted(): number {
  const seen = reads.yaml
  reads.yaml = 0
  return seen
}

async function folder(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), `kbsync-noop-fm-${name}-`))
  folders.push(dir)
  return dir
}

describe('no-op runs and front matter', () => {
  it('a no-op pull and a no-op push parse no front matter; an edit that keeps size and mtime is still seen', async () => {
    const source = await folder('src')
    await generateScaleTree(source, 40, 8)
    expect((await cli(['push', source], local.env)).code).toBe(0)
    counted()
    const dir = await folder('dst')
    const first = await cli(['pull', dir], local.env)
    expect(first.code, first.err).toBe(0)
    // The pulled files open with front matter (title, kb_id) the pull wrote from known fields: neither its check nor the
    // next scans parse those blocks (`pull/front-matter-handover.ts`); the edit below shows the counter counts.
    expect((await cli(['push', dir], local.env)).code).toBe(0)
    expect(counted()).toBe(0)

    const again = await cli(['pull', dir], local.env)
    expect(again.code, again.err).toBe(0)
    expect(counted()).toBe(0)
    const noop = await cli(['push', dir], local.env)
    expect(noop.out).toMatch(/Done: 0 steps, 0 write requests/)
    expect(counted()).toBe(0)

    // A title edited in place: the same number of bytes, the time stamps put back as they were.
    const articles = (await readdir(dir, {recursive: true}))
      .filter((name) => name.endsWith('.md') && !path.basename(name).startsWith('_'))
      .sort()
    const file = path.join(dir, articles[3]!)
    const text = await readFile(file, 'utf8')
    const title = /^title: (.+)$/m.exec(text)![1]!
    // One letter inside the (maybe quoted) title changed for another.
    const changed = title.replace(/[a-z]/, (letter) => (letter === 'a' ? 'e' : 'a'))
    await rewriteKeepingStamps(file, (text) => text.replace(`title: ${title}`, `title: ${changed}`))

    const pulled = await cli(['pull', dir], local.env)
    expect(pulled.code, pulled.err).toBe(0)
    expect(counted()).toBe(1)
    expect(await readFile(file, 'utf8')).toContain(`title: ${changed}`)
    const pushed = await cli(['push', dir], local.env)
    expect(pushed.code, pushed.err).toBe(0)
    expect(pushed.out).not.toMatch(/Done: 0 steps/)
  })
})

/**
 * End-to-end: Git LFS pointer files. A clone made without `git lfs pull`
 * holds, at each image's path, a small text naming its content; pushed, every
 * such image was uploaded as is (1,452 on one real site). They are one error
 * of `plan` and `push`, naming and counting them, and nothing is written.
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {run} from '../cli/helpers.js'
import {temporaryFolders} from '../temp-folders.js'
import {useLocalServer} from './local-server.js'
import {isLfsPointer, lfsPointerDiagnostic} from '../../src/local/lfs-pointer.js'

const local = useLocalServer()
const folders = temporaryFolders('e2e-lfs-pointers')
afterAll(() => folders.removeAll())

/** The pointer git-lfs writes for a content of `size` bytes. */
function pointer(seed: string, size: number): string {
  const oid = seed.repeat(64).slice(0, 64)
  return `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${size}\n`
}

async function repository(files: Record<string, string | Buffer>): Promise<string> {
  const repo = await folders.make()
  await mkdir(path.join(repo, '.git'))
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(repo, name)), {recursive: true})
    await writeFile(path.join(repo, name), content)
  }
  return repo
}

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x42, 0x42])

describe('Git LFS pointer files', () => {
  it('are an error of plan and push naming them, counted; nothing is uploaded or written', async () => {
    const repo = await repository({
      'img/a.png': pointer('a', 48213),
      'img/b.png': pointer('b', 1024),
      'img/c.png': pointer('c', 99),
      'img/real.png': png,
      'guide.md': '# Guide\n\n![a](img/a.png)\n\n![b](img/b.png)\n\n![real](img/real.png)\n',
      'more.md': '# More\n\n![c](img/c.png)\n'
    })
    const root = (await local.client.createItem({type: 'topic', title: 'LFS', parent_topic_id: null})).id
    const writes = local.server.counts().writes
    const from = local.server.requestLog().length
    const plan = await run(['plan', '--root-topic', root], {cwd: repo, env: local.env})
    expect(plan.code).toBe(2)
    const said = plan.out + plan.err
    expect(said).toContain('3 files are Git LFS pointers, not their content: `img/a.png`, `img/b.png` and 1 more')
    expect(said).toContain('Run `git lfs pull` (in CI: `actions/checkout` with `lfs: true`), then push again')
    expect(said).not.toContain('img/real.png')
    const push = await run(['push', '--root-topic', root], {cwd: repo, env: local.env})
    expect(push.code).toBe(2)
    expect(push.out + push.err).toContain('3 files are Git LFS pointers')
    expect(local.server.counts().writes).toBe(writes)
    const requests = local.server.requestLog().slice(from)
    expect(requests.filter((entry) => entry.endpoint === 'upload')).toEqual([])
  })

  it('are told by their first bytes only: a small file, opening with the spec line', () => {
    expect(isLfsPointer(Buffer.from(pointer('e', 5)))).toBe(true)
    expect(isLfsPointer(Buffer.from(pointer('e', 5).replace(/\n/g, '\r\n')))).toBe(true)
    expect(isLfsPointer(png)).toBe(false)
    expect(isLfsPointer(Buffer.from('version https://git-lfs.github.com/spec/v1' + ' '.repeat(200)))).toBe(false)
    expect(isLfsPointer(Buffer.from('version https://git-lfs'))).toBe(false)
    expect(lfsPointerDiagnostic([])).toBeUndefined()
    expect(lfsPointerDiagnostic(['x.png'])?.message).toBe('`x.png` is a Git LFS pointer, not its content')
    expect(lfsPointerDiagnostic(['b.png', 'a.png'])?.message).toBe(
      '2 files are Git LFS pointers, not their content: `a.png` and `b.png`'
    )
    const many = Array.from({length: 1452}, (_, index) => `img/${String(index).padStart(4, '0')}.png`)
    expect(lfsPointerDiagnostic(many)?.message).toBe(
      '1,452 files are Git LFS pointers, not their content: `img/0000.png`, `img/0001.png` and 1,450 more'
    )
  })
})

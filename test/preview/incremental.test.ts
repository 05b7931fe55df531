/**
 * The preview after saves, at the cost of what changed: the saved page shows
 * the new text, the other pages their new navigation, and a page whose links
 * now point elsewhere (a target added, renamed or retitled) is rendered
 * again although its own file did not change.
 */
import {mkdir, rename, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startPreview, type PreviewServer} from '../../src/preview/index.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

const folders = temporaryFolders('preview-incremental')

async function fragment(server: PreviewServer, page: string): Promise<{main: string; nav: string; version: number}> {
  const response = await fetch(`${server.url}_/fragment?path=${encodeURIComponent(page)}`)
  return (await response.json()) as {main: string; nav: string; version: number}
}

describe('preview after a save', () => {
  let dir: string
  let server: PreviewServer

  beforeAll(async () => {
    dir = await folders.make()
    await writeFiles(dir, {
      'alpha.md': '# Alpha\n\nSee [beta](beta.md) and [gamma](gamma.md).\n',
      'beta.md': '# Beta\n\nThe beta text.\n',
      'guide/_index.md': '---\ntitle: Guide\n---\n\nThe guide.\n'
    })
    server = await startPreview({dir, scan: {links: {brokenLinks: 'warn'}}})
  })

  afterAll(async () => {
    await server?.close()
    await folders.removeAll()
  })

  it("shows the saved text on the saved page and its new title in the other pages' navigation", async () => {
    expect((await fragment(server, '/a/alpha.md')).nav).toContain('Beta')
    await writeFile(path.join(dir, 'beta.md'), '# Beta renamed\n\nThe new beta text.\n')
    await server.refresh(['beta.md'])
    expect((await fragment(server, '/a/beta.md')).main).toContain('The new beta text.')
    expect((await fragment(server, '/a/alpha.md')).nav).toContain('Beta renamed')
  })

  it('marks the shown page current in the shared navigation, and only that one', async () => {
    const current = (nav: string) =>
      [...nav.matchAll(/<a [^>]*aria-current="page"[^>]*>/g)].map((match) => /href="([^"]*)"/.exec(match[0])?.[1])
    expect(current((await fragment(server, '/a/alpha.md')).nav)).toEqual(['/a/alpha.md'])
    expect(current((await fragment(server, '/t/guide')).nav)).toEqual(['/t/guide'])
    expect(current((await fragment(server, '/a/alpha.md')).nav)).toEqual(['/a/alpha.md'])
  })

  it("points an unchanged page's link at a document that now exists", async () => {
    expect((await fragment(server, '/a/alpha.md')).main).not.toContain('href="/a/gamma.md"')
    await writeFile(path.join(dir, 'gamma.md'), '# Gamma\n\nNew.\n')
    await server.refresh(['gamma.md'])
    expect((await fragment(server, '/a/alpha.md')).main).toContain('href="/a/gamma.md"')
  })

  it('no longer links an unchanged page to a document moved away', async () => {
    expect((await fragment(server, '/a/alpha.md')).main).toContain('href="/a/beta.md"')
    await mkdir(path.join(dir, 'guide'), {recursive: true})
    await rename(path.join(dir, 'beta.md'), path.join(dir, 'guide/beta.md'))
    await server.refresh(['beta.md', 'guide/beta.md'])
    const alpha = await fragment(server, '/a/alpha.md')
    expect(alpha.main).not.toContain('href="/a/beta.md"')
    expect(alpha.nav).toContain('href="/a/guide/beta.md"')
  })
})

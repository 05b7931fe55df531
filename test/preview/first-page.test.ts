/**
 * The preview serves the first page at once (issue 32): it listens after
 * reading only the folder's listing, builds the page asked for from that
 * page's body alone, and reads every other body in the background, the
 * page saying how far it got. Observed through the server's own state (the
 * page's progress note, `checked`), never a race against the clock.
 */
import {writeFile} from 'node:fs/promises'
import http from 'node:http'
import path from 'node:path'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {generateScaleTree} from '../../bench/scale-tree.js'
import {startPreview, type PreviewServer, type RefreshInfo} from '../../src/preview/index.js'
import {temporaryFolders} from '../temp-folders.js'
import {waitFor} from '../watch/helpers.js'

const folders = temporaryFolders('preview-first-page')
const servers: PreviewServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})
afterAll(() => folders.removeAll())

/** A folder of `articles` generated articles (2-4 KB, links, code, images), one of them with a broken link. */
async function generated(articles: number): Promise<string> {
  const dir = await folders.make()
  await generateScaleTree(dir, articles)
  await writeFile(path.join(dir, 'topic-0/page-0.md'), '# Page 0\n\nSee [the gone page](gone.md).\n')
  return dir
}

async function start(dir: string): Promise<PreviewServer> {
  const server = await startPreview({dir})
  servers.push(server)
  return server
}

async function fragment(server: PreviewServer, page: string): Promise<{main: string; nav: string; version: number}> {
  const response = await fetch(`${server.url}_/fragment?path=${encodeURIComponent(page)}`)
  expect(response.status).toBe(200)
  return (await response.json()) as {main: string; nav: string; version: number}
}

/** The page's progress note: how many documents of how many were read when it was built. */
function progressOf(html: string): {done: number; total: number} | undefined {
  const match = /id="kb-progress"[^>]*>Checking links and problems: ([\d,]+)\/([\d,]+) documents read/.exec(html)
  return match ? {done: Number(match[1]!.replace(/,/g, '')), total: Number(match[2]!.replace(/,/g, ''))} : undefined
}

const withoutProgress = (main: string) => main.replace(/<p class="kb-progress"[^]*?<\/p>/, '')

// Reading a few hundred generated articles takes seconds on a loaded machine: the checks wait for the state, not a clock.
describe('preview: the first page at once', {timeout: 120_000}, () => {
  it('answers a page before the rest of the folder was read, and the same page once it was', async () => {
    const dir = await generated(200)
    const server = await start(dir)
    const response = await fetch(`${server.url}a/topic-5/page-160.md`)
    expect(response.status).toBe(200)
    const first = await response.text()
    // Built while the other bodies were still being read: the page says so, and how far it got.
    const progress = progressOf(first)
    expect(progress).toBeDefined()
    expect(progress!.done).toBeLessThan(progress!.total)
    expect(progress!.total).toBeGreaterThanOrEqual(200)
    expect(first).toContain('<h1 class="kb-page-title" id="user-content-page-160')
    expect(first).toMatch(/<a href="\/a\/topic-\d+\/page-\d+\.md"/)
    const early = await fragment(server, '/a/topic-5/page-160.md')
    await server.checked
    const late = await fragment(server, '/a/topic-5/page-160.md')
    expect(progressOf(late.main)).toBeUndefined()
    // The page it showed at once is the page it shows with everything read: body, links, problems, navigation.
    expect(withoutProgress(early.main)).toBe(late.main)
    expect(early.nav).toBe(late.nav.replace(/ data-errors="1" title="1 error"/, ''))
    expect(late.version).toBeGreaterThan(early.version)
  })

  it("fills in other files' problems when the reading is done, and tells open pages", async () => {
    const dir = await generated(120)
    const server = await start(dir)
    const events: string[] = []
    const stream = http.get(`${server.url}_/events`, (response) =>
      response.on('data', (chunk) => events.push(String(chunk)))
    )
    try {
      const early = await fragment(server, '/a/topic-1/page-40.md')
      expect(progressOf(early.main)).toBeDefined()
      await server.checked
      const done = await waitFor(
        'the last progress event',
        () => events.join('').match(/event: progress\ndata: (\{[^\n]*"complete":true[^\n]*\})/)?.[1]
      )
      expect(JSON.parse(done)).toMatchObject({complete: true, total: expect.any(Number) as number})
      // page-0's broken link is an error of its file: the navigation of every page marks it now.
      const late = await fragment(server, '/a/topic-1/page-40.md')
      expect(late.nav).toMatch(/href="\/a\/topic-0\/page-0\.md"[^>]* data-errors="1"/)
      expect((await fragment(server, '/a/topic-0/page-0.md')).main).toContain('missing-link-target')
    } finally {
      stream.destroy()
    }
  })

  it('shows a save at once while it still reads the folder', async () => {
    const dir = await generated(200)
    const server = await start(dir)
    expect((await fragment(server, '/a/topic-2/page-70.md')).main).not.toContain('Saved while reading')
    await writeFile(path.join(dir, 'topic-2/page-70.md'), '# Page 70\n\nSaved while reading.\n')
    await waitFor('the saved text', async () =>
      (await fragment(server, '/a/topic-2/page-70.md')).main.includes('Saved while reading') ? true : undefined
    )
    await server.checked
    expect((await fragment(server, '/a/topic-2/page-70.md')).main).toContain('Saved while reading')
  })

  it('closes at once while it still reads the folder', async () => {
    const dir = await generated(200)
    const refreshes: RefreshInfo[] = []
    const server = await startPreview({dir, onRefresh: (info) => refreshes.push(info)})
    const page = await fetch(`${server.url}a/topic-1/page-40.md`)
    expect(progressOf(await page.text())).toBeDefined()
    await server.close()
    await server.checked
    // The reading stopped with the server: closing did not wait for every body to be read.
    expect(refreshes).toEqual([])
    await expect(fetch(`${server.url}a/topic-1/page-40.md`)).rejects.toThrow()
  })
})

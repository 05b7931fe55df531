/**
 * What watch prints: the first push shows the tree's messages grouped by
 * rule; after a save, the push's result and the messages of the saved file
 * only (and every error, which blocks the push), not every warning of the
 * tree again. Under `--max-warnings`, a push above the limit writes nothing
 * and says why. A real session against the real local server.
 */
import {writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {remoteTree, waitFor} from './helpers.js'
import {watchedFolder} from './watched-folder.js'

const deepHeadings = (title: string, n: number) =>
  `# ${title}\n\n${Array.from({length: n}, (_, i) => `#### Part ${i}\n\ntext\n`).join('\n')}`

let cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const step of cleanup.reverse()) await step()
  cleanup = []
})

/** A watched folder of ten pages with deep headings, pushed to a fresh local server. */
async function watched(maxWarnings?: number) {
  const files = Object.fromEntries(Array.from({length: 10}, (_, i) => [`page-${i}.md`, deepHeadings(`Page ${i}`, 3)]))
  const watched = await watchedFolder({
    name: 'watch-messages',
    files,
    debounceMs: 100,
    push: maxWarnings !== undefined ? {maxWarnings} : {}
  })
  cleanup.push(watched.close)
  const {client, root, dir, captured, reports, session} = watched
  const next = async (since: number) => {
    const report = await waitFor('a push', () => reports.slice(since).find((r) => r.status !== 'unstable'), 15_000)
    await session.idle()
    return report
  }
  return {client, root, dir, captured, reports, next}
}

describe('watch messages', () => {
  it("groups the tree's warnings on the first push, then shows only the saved file's", async () => {
    const {dir, captured, reports, next} = await watched()
    expect((await next(0)).status).toBe('ok')
    const first = captured.err()
    expect(first).toContain('warning [kb-heading-depth] ×30: ')
    expect(first).not.toContain('page-9.md:9:1: warning')

    const before = reports.length
    await writeFile(path.join(dir, 'page-4.md'), deepHeadings('Page 4', 1) + '\n[gone](nowhere.md)\n')
    expect((await next(before)).status).toBe('invalid')
    const second = captured.err().slice(first.length)
    // The error of the saved file in full, its warning, and nothing of the pages not saved.
    expect(second).toMatch(/page-4\.md:\d+:\d+: error: .*nowhere\.md/)
    expect(second).toContain('page-4.md:3:1: warning')
    expect(second).not.toMatch(/page-[0-35-9]\.md:\d+(:\d+)?: warning/)
    expect(second).not.toContain('×30')

    const fixed = reports.length
    await writeFile(path.join(dir, 'page-4.md'), deepHeadings('Page 4', 1))
    expect((await next(fixed)).status).toBe('ok')
    const third = captured.err().slice(first.length + second.length)
    expect(third).toContain('page-4.md:3:1: warning')
    expect(third).not.toContain('error')
    expect(captured.out()).toMatch(/pushed: .*updated/)
  }, 40_000)

  it('under --max-warnings pushes nothing above the limit and says how many and the limit', async () => {
    const {client, root, captured, next} = await watched(20)
    const report = await next(0)
    expect(report.status).toBe('invalid')
    expect(report.result?.writes).toBe(0)
    expect(captured.err()).toContain(
      'error: 30 warnings, more than the 20 allowed by --max-warnings (config "maxWarnings"): fix some of them (each is listed with --verbose), or raise the limit; not pushed'
    )
    expect(await remoteTree(client, root)).toEqual([])
  }, 40_000)
})

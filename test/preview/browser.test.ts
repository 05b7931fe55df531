/**
 * The preview in headless Chromium (Debian's `chromium`, driven by
 * playwright-core): what a writer sees, clicks and edits.
 */
import {mkdir, readFile, stat, writeFile} from 'node:fs/promises'
import path from 'node:path'
import type {Browser, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {scanFolder, type LocalNode} from '../../src/local/index.js'
import {hexToRgb, palette, startPreview, type PreviewServer} from '../../src/preview/index.js'
import {chromiumPath, launchChromium, offlinePage} from './chromium.js'
import {repoRoot, scratchCopy} from './helpers.js'

const screenshots = path.join(repoRoot, 'test-output/preview')

type Token = keyof typeof palette

describe.skipIf(!chromiumPath)('preview in Chromium', () => {
  let scratch: Awaited<ReturnType<typeof scratchCopy>>
  let server: PreviewServer
  let browser: Browser
  let page: Page

  const open = async (address: string) => {
    await page.goto(new URL(address, server.url).href, {waitUntil: 'domcontentloaded'})
  }

  beforeAll(async () => {
    scratch = await scratchCopy()
    server = await startPreview({dir: scratch.dir})
    browser = await launchChromium()
    page = await offlinePage(browser)
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await scratch?.remove()
  })

  it('lists every article of the folder, with the titles push uses', async () => {
    await open('/')
    const listed = await page.locator('#kb-nav a[data-kind="article"]').allTextContents()
    const scan = await scanFolder(scratch.dir)
    const titles = Object.values(scan.byPath)
      .filter((node: LocalNode) => node.kind === 'article')
      .map((node) => node.title)
    expect(listed.length).toBe(scan.articleCount)
    expect([...listed].sort()).toEqual([...titles].sort())
    expect(await page.locator('#kb-nav a[data-kind="topic"]').allTextContents()).toContain('Guides')
  })

  it('draws hint blocks in their colours', async () => {
    await open('/a/colours.md')
    const blocks = await page.locator('#kb-article [data-node="hintBlock"]').evaluateAll((elements) =>
      elements.map((element) => {
        const style = getComputedStyle(element)
        return {
          color: element.getAttribute('data-color'),
          background: style.backgroundColor,
          border: style.borderLeftColor
        }
      })
    )
    expect(blocks.map((block) => block.color)).toEqual(['red', 'orangeYellow', 'green', 'blue', 'violet', 'gray'])
    for (const block of blocks) {
      const colors = palette[block.color as Token]
      expect(block.background).toBe(hexToRgb(colors.hintBackground))
      expect(block.border).toBe(hexToRgb(colors.hintBorder))
    }
  })

  it('draws the 11 highlight colours', async () => {
    await open('/a/colours.md')
    const marks = await page.locator('#kb-article mark').evaluateAll((elements) =>
      elements.map((element) => ({
        color: element.getAttribute('data-color'),
        background: getComputedStyle(element).backgroundColor
      }))
    )
    expect(marks.map((mark) => mark.color)).toEqual(Object.keys(palette))
    for (const mark of marks) expect(mark.background).toBe(hexToRgb(palette[mark.color as Token].mark))
  })

  it('opens and closes a details block on click', async () => {
    await open('/a/guides/install.md')
    const details = page.locator('#kb-article details')
    const inside = details.getByText('administrator')
    expect(await details.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false)
    expect(await inside.isVisible()).toBe(false)
    await details.locator('summary').click()
    expect(await details.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(true)
    expect(await inside.isVisible()).toBe(true)
    await details.locator('summary').click()
    expect(await details.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false)
  })

  const images = async () => {
    await open('/a/guides/install.md')
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('#kb-article img')).every((image) => (image as HTMLImageElement).complete)
    )
    return page.locator('#kb-article img').evaluateAll((elements) =>
      elements.map((element) => ({
        natural: (element as HTMLImageElement).naturalWidth,
        src: element.getAttribute('src'),
        width: element.getAttribute('width'),
        shown: element.getBoundingClientRect().width
      }))
    )
  }

  it('loads images from the folder', async () => {
    const loaded = await images()
    expect(loaded.length).toBeGreaterThan(0)
    for (const image of loaded) {
      expect(image.src).toBe('/f/img/flow.png')
      expect(image.natural).toBe(240)
    }
  })

  it('draws a sized image at its size', async () => {
    const loaded = await images()
    expect(loaded).toHaveLength(2)
    expect(loaded[0]!.width).toBe('240')
    expect(loaded[0]!.shown).toBe(240)
  })

  it("lists an attachments group as links to the folder's files", async () => {
    await open('/a/guides/install.md')
    const links = page.locator('#kb-article [data-node="attachmentsGroup"] a')
    expect(await links.allTextContents()).toEqual(['checklist.txt', 'flow.png'])
    const href = await links.first().getAttribute('href')
    const response = await page.request.get(new URL(href!, server.url).href)
    expect(response.status()).toBe(200)
    expect(await response.text()).toContain('Before you start')
  })

  it('follows article and topic links inside the preview', async () => {
    await open('/a/guides/install.md')
    await page.locator('#kb-article a', {hasText: 'step two'}).click()
    await page.waitForURL(/\/a\/guides\/install\.md#user-content-step-two$/)
    expect(await page.locator(':target').getAttribute('data-id')).toBe('step-two')
    await page.locator('#kb-article a', {hasText: 'welcome page'}).click()
    await page.waitForURL(/\/a\/welcome\.md#user-content-numbers$/)
    expect(await page.locator('.kb-page-title').textContent()).toBe('Welcome')
    // The fragment names the anchor as rendered (ids carry the clobber prefix), so the browser lands on it.
    expect(await page.locator(':target').getAttribute('data-id')).toBe('numbers')
    await page.locator('#kb-article a', {hasText: 'guides'}).first().click()
    await page.waitForURL(/\/t\/guides$/)
    expect(await page.locator('.kb-page-title').textContent()).toBe('Guides')
  })

  it('shows the errors of a broken file with their lines', async () => {
    await open('/a/guides/broken.md')
    const problems = page.locator('#kb-diagnostics')
    expect(await problems.isVisible()).toBe(true)
    const error = problems.locator('.kb-diagnostic-error', {hasText: 'old-page.md'})
    expect(await error.locator('.kb-where').first().textContent()).toMatch(/^line 5/)
    expect(await error.locator('.kb-line-error').textContent()).toContain('[a page that is gone](old-page.md)')
    expect(await page.locator('#kb-article').textContent()).toContain('This article has problems')
  })

  it('updates the open page within 2 seconds of a save, without reloading it', async () => {
    await open('/a/welcome.md')
    await page.evaluate(() => {
      ;(window as unknown as {kbMarker: string}).kbMarker = 'kept'
      window.scrollTo(0, 80)
    })
    expect(await page.evaluate(() => window.scrollY)).toBe(80)
    const file = path.join(scratch.dir, 'welcome.md')
    const text = await readFile(file, 'utf8')
    const started = Date.now()
    await writeFile(file, text.replace('This folder shows', 'Edited on disk: this folder shows'))
    await page.waitForFunction(
      () => document.querySelector('#kb-article')?.textContent?.includes('Edited on disk'),
      undefined,
      {timeout: 2000}
    )
    const elapsed = Date.now() - started
    console.info(`preview: a save showed in the open page after ${elapsed} ms`)
    expect(elapsed).toBeLessThan(2000)
    expect(await page.evaluate(() => (window as unknown as {kbMarker?: string}).kbMarker)).toBe('kept')
    expect(await page.evaluate(() => window.scrollY)).toBe(80)

    // A new file shows up in the navigation (inside the Guides topic, folded: this page is not in it).
    await writeFile(path.join(scratch.dir, 'guides/new-page.md'), '# Brand new page\n\nHello.\n')
    await page.locator('#kb-nav a', {hasText: 'Brand new page'}).waitFor({state: 'attached', timeout: 2000})

    // A file broken on disk shows its error, with its line, in the same page.
    await writeFile(file, '---\ntitle: [unclosed\n---\n\nBody.\n')
    await page.waitForFunction(
      () => document.querySelector('#kb-diagnostics .kb-diagnostic-error') !== null,
      undefined,
      {timeout: 2000}
    )
    expect(await page.locator('#kb-diagnostics .kb-diagnostic-error .kb-where').first().textContent()).toMatch(
      /^line \d/
    )
    expect(await page.evaluate(() => (window as unknown as {kbMarker?: string}).kbMarker)).toBe('kept')
    await writeFile(file, text)
    await page.locator('#kb-nav a', {hasText: /^Welcome$/}).waitFor({timeout: 2000})
  })

  it('saves screenshots of two articles for a person to look at', async () => {
    await mkdir(screenshots, {recursive: true})
    for (const [address, name] of [
      ['/a/colours.md', 'colours.png'],
      ['/a/guides/install.md', 'install.png']
    ] as const) {
      await open(address)
      await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete))
      const file = path.join(screenshots, name)
      await page.screenshot({path: file, fullPage: true})
      expect((await stat(file)).size).toBeGreaterThan(10_000)
    }
  })
})

/**
 * The preview as a reader of docs sites expects it, in headless Chromium
 * (playwright-core) against the built CLI's `kbsync preview`: heading
 * anchors in the page and across pages, the folded problems panel, the
 * folding topic tree and its filter, highlighted code, the light and dark
 * schemes, and a 360 px phone with the sidebar as a drawer.
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {mkdir, readFile, stat, writeFile} from 'node:fs/promises'
import path from 'node:path'
import type {Browser, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {hexToRgb, shellPalette} from '../../src/preview/palette.js'
import {builtCli} from '../built.js'
import {chromiumPath, launchChromium, offlinePage} from './chromium.js'
import {repoRoot} from './helpers.js'
import {writeReaderTree} from './reader-tree.js'

const screenshots = path.join(repoRoot, 'test-output/preview')

/** Starts the built CLI's preview of `dir`; resolves to its address and the process. */
async function startCliPreview(dir: string): Promise<{url: string; child: ChildProcess}> {
  const child = spawn(process.execPath, [builtCli, 'preview', dir, '--port', '0'], {stdio: ['ignore', 'pipe', 'pipe']})
  const url = await new Promise<string>((resolve, reject) => {
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)
      if (match) resolve(match[1]!)
    })
    child.once('exit', (code) => reject(new Error(`preview exited with ${code} before listening: ${output}`)))
  })
  return {url, child}
}

/** Where the element is relative to the window: its top edge, and whether it is inside the window. */
async function placeOf(page: Page, selector: string): Promise<{top: number; inView: boolean}> {
  return page.locator(selector).evaluate((element) => {
    const box = element.getBoundingClientRect()
    return {top: box.top, inView: box.top >= 0 && box.bottom <= window.innerHeight}
  })
}

describe.skipIf(!chromiumPath)('preview for readers, in Chromium', () => {
  let tree: Awaited<ReturnType<typeof writeReaderTree>>
  let preview: {url: string; child: ChildProcess}
  let browser: Browser
  let page: Page

  const open = async (address: string) => {
    await page.goto(new URL(address, preview.url).href, {waitUntil: 'load'})
  }

  beforeAll(async () => {
    tree = await writeReaderTree()
    preview = await startCliPreview(tree.dir)
    browser = await launchChromium()
    page = await offlinePage(browser)
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    preview?.child.kill('SIGTERM')
    await tree?.remove()
  })

  const heading = '#user-content-enabling-recursive-types'

  it('scrolls to a heading from an in-page link written as on GitHub', async () => {
    await open('/a/guide/setup.md')
    expect((await placeOf(page, heading)).inView).toBe(false)
    await page.locator('#kb-article a', {hasText: 'recursive types'}).click()
    await page.waitForURL(/#user-content-enabling-recursive-types$/)
    expect(await page.locator(':target').textContent()).toBe('Enabling Recursive Types')
    const place = await placeOf(page, heading)
    expect(place.inView).toBe(true)
    expect(place.top).toBeLessThan(100)
  })

  it('puts a link to itself beside each heading, as docs sites do', async () => {
    await open('/a/guide/setup.md')
    const link = page.locator(`${heading} > a.kb-heading-link`)
    expect(await link.getAttribute('href')).toBe(heading)
    await page.locator(heading).hover()
    expect(await link.evaluate((element) => getComputedStyle(element).opacity)).toBe('1')
    expect(await page.locator(heading).textContent()).toBe('Enabling Recursive Types')
  })

  it("lands on the other page's heading from a cross-page link", async () => {
    await open('/a/README.md')
    await page.locator('#kb-article a', {hasText: 'recursive types'}).click()
    await page.waitForURL(/\/a\/guide\/setup\.md#user-content-enabling-recursive-types$/)
    expect(await page.locator('.kb-page-title').textContent()).toBe('Setup')
    expect(await page.locator(':target').textContent()).toBe('Enabling Recursive Types')
    expect((await placeOf(page, heading)).inView).toBe(true)
  })

  it('lands on the title from a link to the heading it was made of', async () => {
    await open('/a/guide/setup.md')
    await page.locator('#kb-article a', {hasText: 'Back to the top'}).scrollIntoViewIfNeeded()
    expect((await placeOf(page, '.kb-page-title')).inView).toBe(false)
    await page.locator('#kb-article a', {hasText: 'Back to the top'}).click()
    await page.waitForURL(/#user-content-setup$/)
    expect((await placeOf(page, '.kb-page-title')).inView).toBe(true)
  })

  it('finds a heading from an address typed without the prefix, as GitHub does', async () => {
    await open('/a/guide/setup.md#enabling-recursive-types')
    await page.waitForFunction((selector) => {
      const box = document.querySelector(selector)!.getBoundingClientRect()
      return box.top >= 0 && box.bottom <= window.innerHeight
    }, heading)
  })

  it('folds the warnings behind a summary counting them by rule, which opens on click', async () => {
    await open('/a/guide/setup.md')
    const panel = page.locator('#kb-warnings')
    expect(await panel.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false)
    expect(await page.locator('#kb-warnings .kb-diagnostic-warning').first().isVisible()).toBe(false)
    const rules = await page.locator('#kb-warnings .kb-rule-count').allTextContents()
    expect(rules.length).toBeGreaterThan(1)
    const total = rules.reduce((sum, text) => sum + Number(/(\d+)$/.exec(text)![1]), 0)
    expect(await page.locator('#kb-warnings .kb-warnings-count').textContent()).toContain(`${total} warning`)
    // Folded, the panel leaves the article on the first screen.
    expect((await placeOf(page, '#kb-article')).top).toBeLessThan(350)
    await panel.locator('summary').click()
    expect(await panel.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(true)
    expect(await page.locator('#kb-warnings .kb-diagnostic-warning').count()).toBe(total)
    expect(await page.locator('#kb-warnings .kb-diagnostic-warning').first().isVisible()).toBe(true)
  })

  it("shows the nested topic tree with the current page's ancestors open and the page marked", async () => {
    await open('/a/guide/deep/more/leaf.md')
    const current = page.locator('#kb-nav a[aria-current="page"]')
    expect(await current.textContent()).toBe('Leaf page')
    expect(await current.isVisible()).toBe(true)
    const openTopics = await page.locator('#kb-nav details[open] > summary > a').allTextContents()
    for (const title of ['Guide', 'Deep topic', 'More topic']) expect(openTopics).toContain(title)
    const other = page.locator('#kb-nav details', {has: page.locator(':scope > summary > a', {hasText: 'Other topic'})})
    expect(await other.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false)
    expect(await page.locator('#kb-nav a', {hasText: 'Elsewhere page'}).isVisible()).toBe(false)
    // A click on the fold's marker (left of the title) opens it without leaving the page.
    const summary = other.locator(':scope > summary')
    const box = (await summary.boundingBox())!
    await page.mouse.click(box.x + 6, box.y + box.height / 2)
    expect(await other.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(true)
    expect(await page.locator('#kb-nav a', {hasText: 'Elsewhere page'}).isVisible()).toBe(true)
    expect(page.url()).toMatch(/leaf\.md$/)
  })

  it('opens a long tree scrolled to the current page', async () => {
    const short = await offlinePage(browser, {width: 1200, height: 260})
    try {
      await short.goto(new URL('/a/guide/deep/more/leaf.md', preview.url).href, {waitUntil: 'load'})
      const seen = await short.locator('#kb-nav a[aria-current="page"]').evaluate((link) => {
        const nav = document.getElementById('kb-nav')!.getBoundingClientRect()
        const box = link.getBoundingClientRect()
        return box.top >= nav.top && box.bottom <= nav.bottom
      })
      expect(seen).toBe(true)
    } finally {
      await short.close()
    }
  })

  it('filters the tree by title as one types, keeping the ancestors of matches', async () => {
    await open('/a/guide/setup.md')
    const visibleTitles = async () =>
      page
        .locator('#kb-nav a')
        .evaluateAll((links) => links.filter((link) => link.checkVisibility()).map((link) => link.textContent))
    const before = await visibleTitles()
    expect(before).not.toContain('Leaf page')
    await page.locator('#kb-nav-filter').pressSequentially('leaf')
    expect(await visibleTitles()).toEqual(['docs', 'Guide', 'Deep topic', 'More topic', 'Leaf page'])
    await page.locator('#kb-nav-filter').fill('no title has this')
    expect(await visibleTitles()).toEqual([])
    expect(await page.locator('#kb-nav-empty').isVisible()).toBe(true)
    await page.locator('#kb-nav-filter').fill('')
    expect(await visibleTitles()).toEqual(before)
  })

  it('keeps the folds and the filter of the tree when a save updates the page', async () => {
    await open('/a/guide/setup.md')
    const other = page.locator('#kb-nav details', {has: page.locator(':scope > summary > a', {hasText: 'Other topic'})})
    const isOpen = () => other.evaluate((element) => (element as HTMLDetailsElement).open)
    const box = (await other.locator(':scope > summary').boundingBox())!
    await page.mouse.click(box.x + 6, box.y + box.height / 2)
    expect(await isOpen()).toBe(true)
    const file = path.join(tree.dir, 'guide/setup.md')
    const save = async (marker: string) => {
      await writeFile(file, (await readFile(file, 'utf8')).replace(/^.*Jump to/m, `${marker} Jump to`))
      await page.waitForFunction((text) => document.querySelector('#kb-article')?.textContent?.includes(text), marker, {
        timeout: 5000
      })
    }
    await save('First save.')
    expect(await isOpen()).toBe(true)
    await page.locator('#kb-nav-filter').pressSequentially('elsewhere')
    await save('Second save.')
    expect(await page.locator('#kb-nav-filter').inputValue()).toBe('elsewhere')
    const shown = await page
      .locator('#kb-nav a')
      .evaluateAll((links) => links.filter((link) => link.checkVisibility()).map((link) => link.textContent))
    expect(shown).toEqual(['docs', 'Other topic', 'Elsewhere page'])
    await page.locator('#kb-nav-filter').fill('')
  })

  it('highlights a TypeScript block in coloured tokens and leaves an unknown language plain', async () => {
    await open('/a/guide/setup.md')
    const block = page.locator('#kb-article pre code.language-ts')
    const colours = await block.evaluate((code) => ({
      text: getComputedStyle(code).color,
      keyword: getComputedStyle(code.querySelector('.kb-tok-keyword')!).color,
      tokens: new Set(Array.from(code.querySelectorAll('span'), (span) => getComputedStyle(span).color)).size
    }))
    expect(colours.keyword).not.toBe(colours.text)
    expect(colours.tokens).toBeGreaterThanOrEqual(3)
    expect(await block.textContent()).toContain('export const answer: number = 42 // the answer')
    expect(await page.locator('#kb-article pre code.language-nosuchlanguage span').count()).toBe(0)
  })

  it("follows the system's dark scheme", async () => {
    await page.emulateMedia({colorScheme: 'dark'})
    await open('/a/guide/setup.md')
    const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    await page.emulateMedia({colorScheme: 'light'})
    const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    expect(dark).toBe(hexToRgb(shellPalette.dark.background))
    expect(light).toBe(hexToRgb(shellPalette.light.background))
  })

  it('fits a 360 px phone: no sideways scroll, the sidebar a drawer a button opens', async () => {
    const phone = await offlinePage(browser, {width: 360, height: 740})
    try {
      await mkdir(screenshots, {recursive: true})
      for (const [address, name] of [
        ['/a/guide/wide.md', 'phone-360-wide.png'],
        ['/a/guide/setup.md', 'phone-360-setup.png']
      ] as const) {
        await phone.goto(new URL(address, preview.url).href, {waitUntil: 'load'})
        expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
        const file = path.join(screenshots, name)
        await phone.screenshot({path: file, fullPage: true})
        expect((await stat(file)).size).toBeGreaterThan(5_000)
      }
      // The wide table scrolls inside its own box.
      await phone.goto(new URL('/a/guide/wide.md', preview.url).href, {waitUntil: 'load'})
      expect(await phone.locator('#kb-article table').evaluate((table) => table.scrollWidth > table.clientWidth)).toBe(
        true
      )
      const nav = phone.locator('#kb-nav')
      const navRight = () => nav.evaluate((element) => element.getBoundingClientRect().right)
      expect(await navRight()).toBeLessThanOrEqual(0)
      // Closed, its links take no keyboard focus.
      expect(await nav.locator('a').first().isVisible()).toBe(false)
      await phone.locator('#kb-drawer-button').click()
      await phone.waitForFunction(() => document.getElementById('kb-nav')!.getBoundingClientRect().left >= 0)
      await phone.screenshot({path: path.join(screenshots, 'phone-360-drawer.png')})
      await phone.locator('#kb-nav a', {hasText: 'Setup'}).click()
      await phone.waitForURL(/\/a\/guide\/setup\.md$/)
      expect(await navRight()).toBeLessThanOrEqual(0)
    } finally {
      await phone.close()
    }
  })
})

/** The preview shows a Mermaid block as its diagram, rendered in the page by the same mermaid push uses. */
import {rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {chromium, type Browser} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {findBrowser, headlessArgs} from '../../src/diagrams/index.js'
import {startPreview, type PreviewServer} from '../../src/preview/index.js'
import {tempDir} from '../cli/helpers.js'

const found = findBrowser()
if (!('path' in found))
  console.warn(
    `Skipping the preview's Mermaid test: no Chromium (looked for ${found.missing.join(', ')}; apt-get install chromium)`
  )

describe.skipIf(!('path' in found))('Mermaid in the preview', () => {
  let dir: string
  let server: PreviewServer
  let browser: Browser

  beforeAll(async () => {
    dir = await tempDir('kbsync-preview-mermaid-')
    await writeFile(
      path.join(dir, 'flow.md'),
      '# Flow\n\n```mermaid\nflowchart LR\n  A[Write] --> B[Push]\n```\n\n```mermaid\nflowchart LR\n  A --> -->\n```\n'
    )
    await writeFile(path.join(dir, 'plain.md'), '# Plain\n\nText.\n')
    server = await startPreview({dir})
    browser = await chromium.launch({executablePath: 'path' in found ? found.path : '', args: [...headlessArgs]})
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await rm(dir, {recursive: true, force: true})
  })

  it('renders a diagram in the page; a broken one stays code with mermaid message as its title', async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(new URL('/a/flow.md', server.url).href)
    await page.locator('.kb-mermaid svg').first().waitFor({timeout: 20_000})
    expect(await page.locator('.kb-mermaid svg').count()).toBe(1)
    expect(await page.locator('.kb-mermaid').textContent()).toContain('Push')
    const broken = page.locator('pre:has(code.language-mermaid)')
    await expect.poll(() => broken.getAttribute('title')).toMatch(/^Mermaid: Parse error on line 2/)
    expect(errors).toEqual([])
  })

  it('does not load mermaid on a page without a diagram', async () => {
    const page = await browser.newPage()
    const scripts: string[] = []
    page.on('request', (request) => scripts.push(new URL(request.url()).pathname))
    await page.goto(new URL('/a/plain.md', server.url).href, {waitUntil: 'load'})
    expect(scripts).toContain('/_/mermaid-loader.js')
    expect(scripts).not.toContain('/_/mermaid.js')
  })
})

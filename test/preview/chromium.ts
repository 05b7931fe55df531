/**
 * The system's Chromium for the preview's browser suites, found and launched
 * as kbsync's own diagram rendering does (`src/diagrams/browser.ts`).
 */
import {chromium, type Browser, type Page} from 'playwright-core'
import {findBrowser, headlessArgs} from '../../src/diagrams/index.js'

const search = findBrowser(process.env.KBSYNC_BROWSER)

/** The executable, or undefined (the suites skip, saying where it looked). */
export const chromiumPath: string | undefined = 'path' in search ? search.path : undefined
if (!chromiumPath && 'missing' in search)
  console.warn(
    `Skipping the preview's browser tests: no Chromium at ${search.missing.join(', ')} (apt-get install chromium)`
  )

/** Launches headless Chromium, reaching no network of its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({executablePath: chromiumPath, args: [...headlessArgs]})
}

/**
 * A page of `browser` with the given viewport whose requests beyond the
 * preview (embeds of video and diagram hosts) are answered at once with an
 * empty 204, instead of waiting on a network there is none of.
 */
export async function offlinePage(browser: Browser, viewport = {width: 1200, height: 700}): Promise<Page> {
  const page = await browser.newPage({viewport})
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.fulfill({status: 204, body: ''}))
  return page
}

/**
 * The system's Chromium for the preview's browser suites, found and launched
 * as kbsync's own diagram rendering does (`src/diagrams/browser.ts`).
 */
import {chromium, type Browser} from 'playwright-core'
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

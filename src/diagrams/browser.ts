/**
 * Finding the system's Chromium, for everything kbsync drives a browser for
 * (Mermaid rendering, the preview's browser tests): the configured path
 * (`browser` in the config, `KBSYNC_BROWSER`) when one is set, else the
 * usual install locations. kbsync never downloads a browser.
 */
import {accessSync, constants} from 'node:fs'

/** Where Chromium and Chrome are installed by the usual packages (Debian, Ubuntu's snap, Fedora, macOS). */
export const browserCandidates: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'
]

/** What `findBrowser` answers: the executable, or where it looked. */
export type BrowserSearch = {path: string} | {missing: readonly string[]}

/** How to get a browser, for messages that found none. */
export const installHint =
  'Install Chromium (`apt install chromium`), or name a Chromium or Chrome executable with KBSYNC_BROWSER or "browser" in your user config (~/.config/kbsync/config.json); a repository config may not name a program'

/** Whether `file` exists and may be executed. */
export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * The browser to launch: `configured` when given (and only it: a path set
 * on purpose that does not exist is reported, not replaced by another), else
 * the first of `candidates` that exists.
 */
export function findBrowser(configured?: string, candidates: readonly string[] = browserCandidates): BrowserSearch {
  const looked = configured !== undefined && configured !== '' ? [configured] : candidates
  const found = looked.find(isExecutable)
  return found !== undefined ? {path: found} : {missing: looked}
}

/**
 * Whether Chromium must run without its sandbox: only as root, where
 * Chromium refuses to start with it ("Running as root without --no-sandbox
 * is not supported"), as in most containers and CI runners. Everywhere else
 * the sandbox stays on.
 */
export function sandboxRefused(uid: number | undefined = process.getuid?.()): boolean {
  return uid === 0
}

/** The arguments Chromium is launched with: headless, the sandbox on unless root (`sandboxRefused`), nothing that reaches the network. */
export const headlessArgs: readonly string[] = [
  '--headless',
  ...(sandboxRefused() ? ['--no-sandbox'] : []),
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync'
]

/**
 * What the renderer's Chromium adds: a second fence behind the page's
 * refusal of every request (`mermaid-render.ts`). Every connection goes to a
 * proxy that is not there (loopback included: `<-loopback>` removes
 * Chromium's implicit bypass) and no host name resolves, so a request the
 * page's routing would not see (a WebSocket) reaches nothing either.
 */
export const offlineArgs: readonly string[] = [
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  '--host-resolver-rules=MAP * ~NOTFOUND'
]

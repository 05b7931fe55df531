/**
 * Rendering Mermaid to SVG in the system's Chromium, driven by
 * playwright-core: one browser and one page for all the diagrams of a run,
 * launched on the first diagram (a run without one never starts it, which
 * would cost about a second), closed by `close`. playwright-core itself is
 * loaded then too (`import()`: it takes over a second to load, and a
 * library-only install may leave it out).
 */
import {loadOptional} from '../optional.js'
import {headlessArgs, offlineArgs} from './browser.js'
import {mermaidPageScript, mermaidScriptPath} from './mermaid-page.js'

/** What rendering one diagram gives: the SVG, or mermaid's message (with the diagram's line when it names one). */
export type RenderOutcome = {svg: string} | {error: string; line?: number}

/**
 * What rendering uses of a browser: the few calls of playwright-core's
 * `Browser` and `Page`, described here so that the public types (the push's
 * options) do not bring playwright's, and through them Node's.
 */
export interface DiagramBrowser {
  newPage(): Promise<DiagramPage>
  close(): Promise<void>
}

/** The calls rendering makes on a page (see `DiagramBrowser`). */
export interface DiagramPage {
  /** The page's browser context, whose requests rendering refuses (`route`, as playwright's). */
  context(): {
    route(url: string, handler: (route: {abort(errorCode?: string): Promise<void>}) => unknown): Promise<unknown>
  }
  setContent(html: string): Promise<void>
  addScriptTag(options: {path?: string; content?: string}): Promise<unknown>
  evaluate(expression: string): Promise<unknown>
}

/** Starts a browser from its executable (the default: headless Chromium through playwright-core). */
export type BrowserLauncher = (executablePath: string) => Promise<DiagramBrowser>

const launchChromium: BrowserLauncher = async (executablePath) => {
  const {chromium} = await loadOptional('playwright-core', () => import('playwright-core'))
  return chromium.launch({executablePath, args: [...headlessArgs, ...offlineArgs]})
}

/** One diagram may take this long; past it, it is an error (a diagram that never finishes must not hold up the push). */
const renderTimeoutMs = 30_000

/** Renders Mermaid sources, one browser for all of them. */
export class MermaidRenderer {
  private page: Promise<DiagramPage> | undefined
  private browser: DiagramBrowser | undefined
  /** Diagrams rendered (successfully or not) so far. */
  renders = 0

  constructor(
    private readonly executablePath: string,
    private readonly launch: BrowserLauncher = launchChromium
  ) {}

  /** Renders `source`; a failure to start the browser throws, a diagram mermaid refuses is an outcome. */
  async render(source: string): Promise<RenderOutcome> {
    const page = await (this.page ??= this.open())
    this.renders++
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<RenderOutcome>((resolve) => {
      timer = setTimeout(
        () => resolve({error: `rendering took longer than ${renderTimeoutMs / 1000} s`}),
        renderTimeoutMs
      )
    })
    try {
      const outcome = await Promise.race([
        page.evaluate(`window.kbsyncRenderMermaid(${JSON.stringify(source)})`) as Promise<RenderOutcome>,
        timeout
      ])
      if (!('error' in outcome)) return outcome
      const line = /\bline (\d+)/i.exec(outcome.error)?.[1]
      return line !== undefined ? {error: outcome.error, line: Number(line)} : outcome
    } finally {
      clearTimeout(timer)
    }
  }

  /** Closes the browser, when one was started. */
  async close(): Promise<void> {
    const browser = this.browser
    this.browser = undefined
    this.page = undefined
    await browser?.close()
  }

  private async open(): Promise<DiagramPage> {
    this.browser = await this.launch(this.executablePath)
    const page = await this.browser.newPage()
    // The page needs nothing from a network: mermaid goes in as script text (addScriptTag reads the file here).
    // Every request (an image shape's URL, a url() in a diagram's CSS, a navigation) is refused before it leaves.
    await page.context().route('**/*', (route) => route.abort('blockedbyclient'))
    await page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>')
    await page.addScriptTag({path: mermaidScriptPath()})
    await page.addScriptTag({content: mermaidPageScript})
    return page
  }
}

/**
 * Mermaid in the preview: the page shows a diagram as push publishes it,
 * rendered in the reader's browser by the same mermaid and the same settings
 * (`diagrams/mermaid-page.ts`). A small loader comes with every page; it
 * fetches mermaid (3.5 MB) only when the page has a Mermaid block, and
 * renders again when the live reload swaps the article in.
 */
import {readFileSync} from 'node:fs'
import {mermaidPageScript, mermaidScriptPath} from '../diagrams/index.js'

/** Where the loader and the library are served (same origin: the page's policy allows only its own scripts). */
export const mermaidRoutes = {loader: '/_/mermaid-loader.js', library: '/_/mermaid.js'} as const

/** The `<script>` tag of the loader, for the page's head. */
export const mermaidLoaderTag = `<script src="${mermaidRoutes.loader}" defer></script>`

const loaderScript = `(() => {
  'use strict'
  let loading
  let running = false
  const pending = () => document.querySelector('pre > code.language-mermaid:not([data-mermaid-failed])') !== null
  const load = () => (loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script')
    script.src = ${JSON.stringify(mermaidRoutes.library)}
    script.onload = resolve
    script.onerror = reject
    document.head.appendChild(script)
  }))
  let again = false
  const run = async () => {
    if (running) {
      // A swap while rendering: its blocks are rendered once this run ends.
      again = true
      return
    }
    if (!pending()) return
    running = true
    try {
      await load()
      await window.kbsyncRenderMermaidBlocks()
    } finally {
      running = false
      if (again) {
        again = false
        run()
      }
    }
  }
  const start = () => {
    run()
    // The live reload's client says when it swapped the article in.
    document.addEventListener('kb-preview-updated', () => run())
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start)
  else start()
})()
`

let library: string | undefined

/** The script served at `pathname`, when it is one of `mermaidRoutes`. */
export function mermaidScript(pathname: string): string | undefined {
  if (pathname === mermaidRoutes.loader) return loaderScript
  if (pathname !== mermaidRoutes.library) return undefined
  library ??= readFileSync(mermaidScriptPath(), 'utf8') + '\n' + mermaidPageScript
  return library
}

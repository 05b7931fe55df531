/**
 * The script a page runs to render Mermaid, beside `mermaid.min.js`: the
 * same settings wherever kbsync renders a diagram (the push's headless page,
 * the preview), so the preview shows what push uploads. Labels are plain
 * SVG text (no `foreignObject` HTML, which an `<img>` of the file would not
 * show reliably), and the result is serialised as XML so the file is a
 * well-formed SVG image.
 */
import {createRequire} from 'node:module'
import {resolveOptional} from '../optional.js'

/** Absolute path of the installed `mermaid.min.js` (the library the page loads); a `MissingPackageError` without mermaid. */
export function mermaidScriptPath(): string {
  return resolveOptional('mermaid', () => createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js'))
}

/**
 * The settings every rendering uses. `secure` lists the keys a diagram's
 * own configuration (`%%{init: ...}%%`, front matter `config:`) cannot
 * change (mermaid drops them from a directive, at any depth): mermaid's own
 * list, plus HTML labels (`<foreignObject>` HTML in the image), raw CSS
 * (`themeCSS`, the font families: CSS can fetch) and the sanitiser's own
 * settings (`dompurifyConfig`). `securityLevel: 'strict'`: no scripts, no
 * click callbacks, labels sanitised by mermaid.
 */
export const mermaidSettings = {
  startOnLoad: false,
  securityLevel: 'strict',
  htmlLabels: false,
  flowchart: {htmlLabels: false},
  secure: [
    'secure',
    'securityLevel',
    'startOnLoad',
    'maxTextSize',
    'suppressErrorRendering',
    'maxEdges',
    'htmlLabels',
    'themeCSS',
    'fontFamily',
    'altFontFamily',
    'dompurifyConfig',
    'arrowMarkerAbsolute'
  ]
} as const

/**
 * Page script: defines `kbsyncRenderMermaid(source)`, answering `{svg}` or
 * `{error}` (mermaid's own message), and `kbsyncRenderMermaidBlocks()`,
 * which replaces every `pre > code.language-mermaid` of the page by its
 * diagram (a block that fails stays code, with the message as its title,
 * and is not tried again).
 */
export const mermaidPageScript = `
(() => {
  let count = 0
  window.mermaid.initialize(${JSON.stringify(mermaidSettings)})
  const message = (error) => String((error && (error.message || error.str)) || error)
  window.kbsyncRenderMermaid = async (source) => {
    try {
      await window.mermaid.parse(source)
    } catch (error) {
      return {error: message(error)}
    }
    const id = 'kbsync-mermaid-' + ++count
    try {
      const {svg} = await window.mermaid.render(id, source)
      const element = new DOMParser().parseFromString(svg, 'text/html').querySelector('svg')
      if (!element) return {error: 'mermaid produced no SVG'}
      // An image needs a size of its own: the viewBox's, instead of mermaid's width="100%" and max-width.
      const box = (element.getAttribute('viewBox') || '').replace(/,/g, ' ').split(' ').filter(Boolean).map(Number)
      if (box.length === 4 && box[2] > 0 && box[3] > 0) {
        element.setAttribute('width', String(Math.ceil(box[2])))
        element.setAttribute('height', String(Math.ceil(box[3])))
        element.style.removeProperty('max-width')
      }
      return {svg: new XMLSerializer().serializeToString(element)}
    } catch (error) {
      return {error: message(error)}
    } finally {
      document.getElementById(id)?.remove()
      document.getElementById('d' + id)?.remove()
    }
  }
  window.kbsyncRenderMermaidBlocks = async () => {
    for (const code of document.querySelectorAll('pre > code.language-mermaid:not([data-mermaid-failed])')) {
      const outcome = await window.kbsyncRenderMermaid(code.textContent || '')
      const pre = code.parentElement
      if (outcome.error !== undefined) {
        code.setAttribute('data-mermaid-failed', '')
        pre.title = 'Mermaid: ' + outcome.error
        continue
      }
      const figure = document.createElement('div')
      figure.className = 'kb-mermaid'
      figure.innerHTML = outcome.svg
      pre.replaceWith(figure)
    }
  }
})()
`

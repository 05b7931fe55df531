/** Diagrams: Mermaid blocks rendered to SVG in the system's Chromium, and the browser they need. */
export {findBrowser, headlessArgs} from './browser.js'
export {diagramAlt, diagramPath, isMermaidLang, mermaidKey} from './mermaid-source.js'
export {mermaidPageScript, mermaidScriptPath} from './mermaid-page.js'
export type {BrowserLauncher} from './mermaid-render.js'
export {prepareDiagrams, type DiagramOptions} from './prepare.js'
export {diagramSourceLookup, keepAsCode, keepSource} from './sources.js'
export {diagramImage} from './publish.js'

/** Diagrams: Mermaid blocks rendered to SVG in the system's Chromium, and the browser they need. */
export {browserCandidates, findBrowser, headlessArgs, installHint, type BrowserSearch} from './browser.js'
export {diagramAlt, diagramFolder, diagramPath, isMermaidLang, mermaidKey} from './mermaid-source.js'
export {mermaidPageScript, mermaidScriptPath} from './mermaid-page.js'
export {
  MermaidRenderer,
  type BrowserLauncher,
  type DiagramBrowser,
  type DiagramPage,
  type RenderOutcome
} from './mermaid-render.js'
export {prepareDiagrams, type DiagramOptions} from './prepare.js'
export {diagramSourceLookup, keepAsCode, keepSource, sourcePath} from './sources.js'
export {keptAsCode} from './code-markers.js'
export {diagramImage} from './publish.js'

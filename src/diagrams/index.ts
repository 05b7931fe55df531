/** Diagrams and formulas: Mermaid rendered in the system's Chromium, math with MathJax, PlantUML and D2 with their programs. */
export {findBrowser, headlessArgs} from './browser.js'
export {altOf, codeDiagramKind, nodeDiagramKind, type DiagramKind} from './kinds.js'
export {diagramAlt, diagramKey, diagramPath, isMermaidLang, mermaidKey} from './mermaid-source.js'
export {mermaidPageScript, mermaidScriptPath} from './mermaid-page.js'
export type {BrowserLauncher} from './mermaid-render.js'
export {dropRefusedDiagrams, prepareDiagrams, type DiagramOptions} from './prepare.js'
export {
  codeDiagrams,
  diagramSourceLookup,
  diagramSources,
  keepAsCode,
  keepSource,
  type DiagramSource
} from './sources.js'
export {diagramImage, renderedImage} from './publish.js'

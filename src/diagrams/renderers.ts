/**
 * The renderer of each kind of source, as the diagram step uses them: one
 * per kind and run, opened only when a source of that kind needs rendering
 * (Mermaid in the system's Chromium, formulas with MathJax in process,
 * PlantUML and D2 with their programs), or the reason there is none and
 * what to do about it.
 */
import {findBrowser, installHint} from './browser.js'
import type {DiagramKind} from './kinds.js'
import {renderMath} from './math-render.js'
import {MermaidRenderer, type BrowserLauncher, type RenderOutcome} from './mermaid-render.js'
import {findTool, renderWithTool, toolCommand, toolVariable, type ToolKind} from './tool-render.js'

/** How diagrams are rendered (`PushOptions.diagrams`). */
export interface DiagramOptions {
  /** The Chromium or Chrome executable (config `browser`, `KBSYNC_BROWSER`); unset: the usual install locations. */
  browser?: string
  /** Starts the browser (default: headless Chromium through playwright-core). */
  launch?: BrowserLauncher
  /** The PlantUML program (user config `plantuml`, `KBSYNC_PLANTUML`); unset: `plantuml` on PATH. */
  plantuml?: string
  /** The D2 program (user config `d2`, `KBSYNC_D2`); unset: `d2` on PATH. */
  d2?: string
}

/** Renders the sources of one kind; a renderer that cannot work at all throws (the rest of its kind stays code). */
export interface KindRenderer {
  render(source: string): Promise<RenderOutcome>
  close(): Promise<void>
}

/** A kind's renderer, or why there is none (`missing`) and how to get one (`hint`). */
export type OpenedRenderer = {renderer: KindRenderer} | {missing: string; hint: string; rule: string}

/** The renderer of `kind` for a run, as `options` and the machine allow. */
export function openRenderer(kind: DiagramKind, options: DiagramOptions): OpenedRenderer {
  if (kind === 'mermaid') {
    const found = findBrowser(options.browser)
    if ('missing' in found)
      return {missing: `looked for ${found.missing.join(', ')}`, hint: installHint, rule: 'diagram-no-browser'}
    return {renderer: new MermaidRenderer(found.path, options.launch)}
  }
  if (kind === 'math' || kind === 'math-inline') {
    const display = kind === 'math'
    return {renderer: {render: (source) => renderMath(source, display), close: async () => undefined}}
  }
  return toolRenderer(kind, options[kind])
}

/** The renderer of a kind drawn by its own program (PlantUML, D2). */
function toolRenderer(kind: ToolKind, configured: string | undefined): OpenedRenderer {
  const found = findTool(kind, configured)
  if ('missing' in found) {
    const command = toolCommand(kind)
    return {
      missing: found.missing,
      hint: `Install ${command}, or set ${toolVariable(kind)} (or "${command}" in your user config) to its path`,
      rule: 'diagram-no-tool'
    }
  }
  return {renderer: {render: (source) => renderWithTool(kind, found.path, source), close: async () => undefined}}
}

/** How messages name what refused a source of `kind`. */
export const rendererNames: Record<DiagramKind, string> = {
  mermaid: 'Mermaid',
  plantuml: 'PlantUML',
  d2: 'D2',
  math: 'MathJax',
  'math-inline': 'MathJax'
}

/** Where to try a source of `kind` that its renderer refused, for hints. */
export const fixHints: Record<DiagramKind, string> = {
  mermaid: 'Fix the diagram (try it at https://mermaid.live)',
  plantuml: 'Fix the diagram (try it at https://www.plantuml.com/plantuml)',
  d2: 'Fix the diagram (try it at https://play.d2lang.com)',
  math: 'Fix the TeX (MathJax reads the formula alone: macros a site defines in its configuration are not known)',
  'math-inline':
    'Fix the TeX (MathJax reads the formula alone: macros a site defines in its configuration are not known)'
}

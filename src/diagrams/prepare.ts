/**
 * The diagram step of a plan: every Mermaid diagram the bodies use that has
 * no uploaded file yet gets its SVG, rendered once into `.kbsync/diagrams/`
 * (the file is the cache: a diagram whose source did not change is never
 * rendered again, and one whose upload the state records is neither rendered
 * nor uploaded). A diagram that cannot be rendered (mermaid refuses its
 * source, or there is no browser) is published as the code block it is
 * written as, with a warning; the scan is changed so that nothing uses it.
 */
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {type Diagnostic, type LocalAsset, type ScanResult, type SyncState} from '../local/index.js'
import {findBrowser, installHint} from './browser.js'
import {advisoryWrite, keepSource, keptSource, readCache} from './sources.js'
import {maxSvgBytes, sanitiseSvg} from '../trust/index.js'
import {diagramFile} from './mermaid-source.js'
import {MermaidRenderer, type BrowserLauncher, type RenderOutcome} from './mermaid-render.js'

/** How diagrams are rendered (`PushOptions.diagrams`). */
export interface DiagramOptions {
  /** The Chromium or Chrome executable (config `browser`, `KBSYNC_BROWSER`); unset: the usual install locations. */
  browser?: string
  /** Starts the browser (default: headless Chromium through playwright-core). */
  launch?: BrowserLauncher
}

type Diagram = LocalAsset & {diagram: NonNullable<LocalAsset['diagram']>}

/** Where the message of a diagram mermaid refused is kept (so an unchanged broken diagram does not start a browser). */
const errorFileOf = (asset: Diagram): string => diagramFile(asset.sha256, '.error.txt')

/**
 * Makes sure every diagram of `scan` that the state has no URL for has its
 * SVG on disk; drops from `scan` those that cannot have one. Returns the
 * warnings (file and line, mermaid's message) and an info line counting the
 * diagrams rendered.
 */
export async function prepareDiagrams(
  scan: ScanResult,
  state: SyncState,
  options: DiagramOptions = {}
): Promise<Diagnostic[]> {
  const wanted = Object.values(scan.assets).filter(
    (asset): asset is Diagram => asset.diagram !== undefined && state.assets[asset.sha256]?.url === undefined
  )
  const failed: Array<{asset: Diagram; error: string; line?: number}> = []
  const toRender: Diagram[] = []
  for (const asset of wanted) {
    // Looked at before the sources are kept below: a rendering counts only beside the source it was made from.
    const cached = await cachedSize(scan.dir, asset)
    const error = cached === undefined ? readError(scan.dir, errorFileOf(asset)) : undefined
    if (cached !== undefined) asset.size = cached
    else if (error) failed.push({asset, ...error})
    else toRender.push(asset)
  }
  for (const asset of Object.values(scan.assets))
    if (asset.diagram) keepSource(scan.dir, asset.sha256, asset.diagram.source)
  const diagnostics: Diagnostic[] = []
  if (toRender.length > 0) {
    const outcome = await renderAll(scan.dir, toRender, options)
    failed.push(...outcome.failed)
    if (outcome.missing) diagnostics.push(noBrowser(outcome.unrendered, outcome.missing))
    if (outcome.rendered > 0) {
      diagnostics.push({
        severity: 'info',
        message: `Rendered ${outcome.rendered} Mermaid diagram${outcome.rendered === 1 ? '' : 's'} to SVG`,
        rule: 'diagram-rendered'
      })
    }
    for (const asset of outcome.unrendered) dropDiagram(scan, asset)
  }
  for (const failure of failed) {
    diagnostics.push(renderFailure(failure))
    dropDiagram(scan, failure.asset)
  }
  return diagnostics
}

/** The warning of a diagram mermaid refused: at the fence's line plus the line mermaid names, with its message. */
function renderFailure({asset, error, line}: {asset: Diagram; error: string; line?: number}): Diagnostic {
  const {file, line: fence} = asset.diagram
  return {
    severity: 'warning',
    file,
    ...(fence !== undefined ? {line: fence + (line ?? 0)} : {}),
    message: `Mermaid could not render this diagram (${error.replace(/\s+/g, ' ').trim()}); it is published as a code block`,
    hint: 'Fix the diagram (try it at https://mermaid.live)',
    rule: 'diagram-render-failed'
  }
}

/** What rendering the diagrams gave: how many were rendered, those mermaid refused, and those left without a browser (`missing` says why). */
interface RenderRun {
  rendered: number
  failed: Array<{asset: Diagram; error: string; line?: number}>
  unrendered: Diagram[]
  missing?: string
}

/** Renders `diagrams` in one browser, writing each SVG (or mermaid's message) beside the others. */
async function renderAll(dir: string, diagrams: Diagram[], options: DiagramOptions): Promise<RenderRun> {
  const found = findBrowser(options.browser)
  if ('missing' in found)
    return {rendered: 0, failed: [], unrendered: diagrams, missing: `looked for ${found.missing.join(', ')}`}
  const renderer = new MermaidRenderer(found.path, options.launch)
  const run: RenderRun = {rendered: 0, failed: [], unrendered: []}
  try {
    for (const [index, asset] of diagrams.entries()) {
      let outcome: RenderOutcome
      try {
        outcome = await renderer.render(asset.diagram.source)
      } catch (error) {
        const why = error instanceof Error ? error.message.split('\n')[0] : String(error)
        return {...run, unrendered: diagrams.slice(index), missing: `${found.path} did not start: ${why}`}
      }
      if ('svg' in outcome) {
        keepRendering(dir, asset, outcome.svg)
        run.rendered++
      } else {
        advisoryWrite(dir, errorFileOf(asset), JSON.stringify(outcome))
        run.failed.push({asset, ...outcome})
      }
    }
    return run
  } finally {
    await renderer.close().catch(() => undefined)
  }
}

/**
 * Writes the SVG of `asset` where the upload reads it: in the folder's
 * `.kbsync/diagrams/` (the cache), or, where that cannot be written (a
 * read-only checkout, a `.kbsync` link out of the folder), in a temporary
 * folder for this run only.
 */
function keepRendering(dir: string, asset: Diagram, svg: string): void {
  asset.size = Buffer.byteLength(svg)
  if (advisoryWrite(dir, asset.path, svg)) return
  const spare = mkdtempSync(path.join(tmpdir(), 'kbsync-diagram-'))
  asset.absolutePath = path.join(spare, path.basename(asset.path))
  writeFileSync(asset.absolutePath, svg)
}

/**
 * The size of the kept rendering of `asset`, when the cache holds one that
 * may be used: a regular file inside `.kbsync/diagrams/` (`readCache`),
 * beside the source it was rendered from (the kept `.mmd` hashes to the
 * key), that the upload can sanitise (`sanitiseSvg`). Anything else (a
 * link, a stale or planted file, one that is not an SVG) is rendered again.
 * The upload sanitises what it sends in any case.
 */
async function cachedSize(dir: string, asset: Diagram): Promise<number | undefined> {
  if (keptSource(dir, asset.sha256) === undefined) return undefined
  const svg = readCache(dir, asset.path, maxSvgBytes)
  if (svg === undefined) return undefined
  try {
    await sanitiseSvg(svg)
  } catch {
    return undefined
  }
  return Buffer.byteLength(svg)
}

/** The message of a refused diagram, as `renderAll` kept it (undefined when none is kept); control characters go (it is printed). */
function readError(dir: string, relative: string): {error: string; line?: number} | undefined {
  const text = readCache(dir, relative, 64 * 1024)
  if (text === undefined) return undefined
  try {
    const kept = JSON.parse(text) as {error?: unknown; line?: unknown}
    const error = String(kept.error)
      .replace(/\p{Cc}/gu, ' ')
      .slice(0, 2000)
    return {error, ...(typeof kept.line === 'number' && Number.isSafeInteger(kept.line) ? {line: kept.line} : {})}
  } catch {
    return {error: 'mermaid refused it in an earlier run'}
  }
}

/** The one warning of a run whose diagrams need a browser and found none. */
function noBrowser(diagrams: Diagram[], why: string): Diagnostic {
  const first = diagrams[0]!.diagram
  const count = diagrams.length
  return {
    severity: 'warning',
    file: first.file,
    ...(first.line !== undefined ? {line: first.line} : {}),
    message: `${count} Mermaid diagram${count === 1 ? '' : 's'} (this one first) ${count === 1 ? 'stays a code block' : 'stay code blocks'}: no browser to render them (${why})`,
    hint: installHint,
    rule: 'diagram-no-browser'
  }
}

/** Takes the diagram `asset` out of `scan`: every block using it stays code (its resolution is dropped, its tree parsed again). */
function dropDiagram(scan: ScanResult, asset: Diagram): void {
  delete scan.assets[asset.sha256]
  for (const node of Object.values(scan.byPath)) {
    const index = node.refs.assets.findIndex((ref) => ref.sha256 === asset.sha256)
    if (index === -1) continue
    node.refs.assets.splice(index, 1)
    node.resolutions = node.resolutions?.map((resolved) =>
      resolved && 'asset' in resolved && resolved.asset.path === asset.path ? null : resolved
    )
    delete node.tree
  }
}

/**
 * The diagram step of a plan: every diagram and formula the bodies use that
 * has no uploaded file yet gets its SVG, rendered once into
 * `.kbsync/diagrams/` (the file is the cache: a source that did not change
 * is never rendered again, and one whose upload the state records is
 * neither rendered nor uploaded). A source that cannot be rendered (its
 * renderer refuses it, or there is none: no browser, no `plantuml`) is
 * published as the code it is written as, with a warning; the scan is
 * changed so that nothing uses it.
 */
import {type Diagnostic, type LocalAsset, type LocalNode, type ScanResult, type SyncState} from '../local/index.js'
import {advisoryWrite, keepSource, keptSource, readCache} from './sources.js'
import {maxSvgBytes, sanitiseSvg} from '../trust/index.js'
import {countOf, diagramKinds, type DiagramKind} from './kinds.js'
import {diagramFile} from './mermaid-source.js'
import type {RenderOutcome} from './mermaid-render.js'
import {fixHints, openRenderer, rendererNames, type DiagramOptions} from './renderers.js'
import {writeSpareFile} from './spare-folder.js'

export type {DiagramOptions} from './renderers.js'

type Diagram = LocalAsset & {diagram: NonNullable<LocalAsset['diagram']>}

/** A source its renderer refused, with the renderer's message (and the source's line it names, if any). */
type Failure = {asset: Diagram; error: string; line?: number}

const kindOf = (asset: Diagram): DiagramKind => asset.diagram.kind ?? 'mermaid'

/** Where the message of a source its renderer refused is kept (so an unchanged broken diagram does not start a browser). */
const errorFileOf = (asset: Diagram): string => diagramFile(asset.sha256, '.error.txt', kindOf(asset))

/**
 * Makes sure every diagram and formula of `scan` that the state has no URL
 * for has its SVG on disk; drops from `scan` those that cannot have one.
 * Returns the warnings (file and line, the renderer's message) and an info
 * line counting the sources rendered, by kind.
 */
export async function prepareDiagrams(
  scan: ScanResult,
  state: SyncState,
  options: DiagramOptions = {}
): Promise<Diagnostic[]> {
  const wanted = Object.values(scan.assets).filter(
    (asset): asset is Diagram => asset.diagram !== undefined && state.assets[asset.sha256]?.url === undefined
  )
  const failed: Failure[] = []
  const toRender = new Map<DiagramKind, Diagram[]>()
  for (const asset of wanted) {
    // Looked at before the sources are kept below: a rendering counts only beside the source it was made from.
    const cached = await cachedSize(scan.dir, asset)
    const error = cached === undefined ? readError(scan.dir, errorFileOf(asset)) : undefined
    if (cached !== undefined) asset.size = cached
    else if (error) failed.push({asset, ...error})
    else toRender.set(kindOf(asset), [...(toRender.get(kindOf(asset)) ?? []), asset])
  }
  for (const asset of Object.values(scan.assets))
    if (asset.diagram) keepSource(scan.dir, asset.sha256, asset.diagram.source, asset.diagram.kind)
  const diagnostics: Diagnostic[] = []
  const rendered: string[] = []
  for (const kind of diagramKinds) {
    const diagrams = toRender.get(kind)
    if (!diagrams) continue
    const outcome = await renderAll(scan.dir, kind, diagrams, options)
    failed.push(...outcome.failed)
    if (outcome.missing) diagnostics.push(noRenderer(kind, outcome.unrendered, outcome.missing))
    if (outcome.rendered > 0) rendered.push(countOf(kind, outcome.rendered))
    for (const asset of outcome.unrendered) dropDiagram(scan, asset)
  }
  // One line for the run (the reporter groups by rule): "Rendered 2 Mermaid diagrams and 3 formulas to SVG".
  if (rendered.length > 0) {
    const list = rendered.length === 1 ? rendered[0]! : `${rendered.slice(0, -1).join(', ')} and ${rendered.at(-1)!}`
    diagnostics.push({severity: 'info', message: `Rendered ${list} to SVG`, rule: 'diagram-rendered'})
  }
  diagnostics.push(...renderFailures(failed))
  for (const failure of failed) dropDiagram(scan, failure.asset)
  return diagnostics
}

/**
 * Takes out of `scan` the diagrams and formulas of `node` that a push
 * publishes as code because their renderer refused them in an earlier run
 * (its message kept, no rendering on disk, no URL in `state`), as
 * `prepareDiagrams` does before a push renders. A pull that renders a file
 * as push would (the base of a merge, its proof) must do the same: else a
 * refused formula reads as changed on the platform, and a web edit
 * elsewhere in the page rewrites the author's `$...$` as code.
 */
export function dropRefusedDiagrams(scan: ScanResult, state: SyncState, node: LocalNode): void {
  for (const ref of [...node.refs.assets]) {
    const asset = scan.assets[ref.sha256]
    if (asset?.diagram === undefined || state.assets[asset.sha256]?.url !== undefined) continue
    const diagram = asset as Diagram
    if (readCache(scan.dir, diagram.path, maxSvgBytes) !== undefined) continue
    if (readError(scan.dir, errorFileOf(diagram))) dropDiagram(scan, diagram)
  }
}

/**
 * The warnings of the sources their renderers refused: one per file and
 * kind, at the first one's line (the fence's line plus the line the
 * renderer names), with its message and how many more the file has.
 */
function renderFailures(failed: readonly Failure[]): Diagnostic[] {
  const groups = new Map<string, Failure[]>()
  for (const failure of failed) {
    const group = `${failure.asset.diagram.file}\0${kindOf(failure.asset)}`
    groups.set(group, [...(groups.get(group) ?? []), failure])
  }
  return [...groups.values()].map((group) => {
    const sorted = [...group].sort((a, b) => (a.asset.diagram.line ?? 0) - (b.asset.diagram.line ?? 0))
    const {asset, error, line} = sorted[0]!
    const kind = kindOf(asset)
    const {file, line: fence} = asset.diagram
    const what =
      sorted.length === 1
        ? `this ${countOf(kind, 1).replace(/^1 /, '')}`
        : `${countOf(kind, sorted.length)} of this file (the first here)`
    const code = kind === 'math-inline' ? 'inline code' : 'a code block'
    return {
      severity: 'warning',
      file,
      ...(fence !== undefined ? {line: fence + (line ?? 0)} : {}),
      message: `${rendererNames[kind]} could not render ${what} (${error.replace(/\s+/g, ' ').trim()}); ${sorted.length === 1 ? 'it is' : 'each is'} published as ${code}`,
      hint: fixHints[kind],
      rule: 'diagram-render-failed'
    }
  })
}

/** What rendering the sources of a kind gave: how many were rendered, those refused, and those left without a renderer (`missing` says why). */
interface RenderRun {
  rendered: number
  failed: Failure[]
  unrendered: Diagram[]
  missing?: {why: string; hint: string; rule: string}
}

/** Renders `diagrams` (all of `kind`) with one renderer, writing each SVG (or the renderer's message) beside the others. */
async function renderAll(
  dir: string,
  kind: DiagramKind,
  diagrams: Diagram[],
  options: DiagramOptions
): Promise<RenderRun> {
  const opened = openRenderer(kind, options)
  if ('missing' in opened)
    return {
      rendered: 0,
      failed: [],
      unrendered: diagrams,
      missing: {why: opened.missing, hint: opened.hint, rule: opened.rule}
    }
  const {renderer} = opened
  const run: RenderRun = {rendered: 0, failed: [], unrendered: []}
  try {
    for (const [index, asset] of diagrams.entries()) {
      let outcome: RenderOutcome
      try {
        outcome = await renderer.render(asset.diagram.source)
      } catch (error) {
        const why = error instanceof Error ? error.message.split('\n')[0] : String(error)
        const rule = kind === 'mermaid' ? 'diagram-no-browser' : 'diagram-no-tool'
        const missing = {why: `${rendererNames[kind]} did not start: ${why}`, hint: '', rule}
        return {...run, unrendered: diagrams.slice(index), missing}
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
 * folder removed when the process exits (`spare-folder.ts`).
 */
function keepRendering(dir: string, asset: Diagram, svg: string): void {
  asset.size = Buffer.byteLength(svg)
  if (advisoryWrite(dir, asset.path, svg)) return
  asset.absolutePath = writeSpareFile(asset.path, svg)
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

/** The one warning of a run whose sources of `kind` need a renderer and found none. */
function noRenderer(kind: DiagramKind, diagrams: Diagram[], missing: NonNullable<RenderRun['missing']>): Diagnostic {
  const first = diagrams[0]!.diagram
  const count = diagrams.length
  const code = kind === 'math-inline' ? 'inline code' : count === 1 ? 'a code block' : 'code blocks'
  const message =
    kind === 'mermaid'
      ? `${countOf(kind, count)} (this one first) ${count === 1 ? 'stays a code block' : 'stay code blocks'}: no browser to render them (${missing.why})`
      : `${countOf(kind, count)} (this one first) kept as ${code}: ${missing.why}`
  return {
    severity: 'warning',
    file: first.file,
    ...(first.line !== undefined ? {line: first.line} : {}),
    message,
    ...(missing.hint !== '' ? {hint: missing.hint} : {}),
    rule: missing.rule
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

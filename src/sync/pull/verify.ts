/**
 * The check after a pull: the folder is scanned and each document pulled
 * now (their bodies alone are parsed) is rendered exactly as push will
 * render it. That gives the state the hashes push compares (a push right
 * after a pull sends nothing), and proves each body comes back unchanged:
 * one that would not is reported (`pull-not-exact`).
 */
import {
  FrontMatterCache,
  forgetHandedOver,
  handedTreesMax,
  scanFolder,
  sourceHashOf,
  type LocalNode,
  type ScanResult,
  type StateEntry
} from '../../local/index.js'
import {planRenderContext} from '../shared/render-context.js'
import {releaseRender} from '../shared/render.js'
import {conversionPool} from '../../workers/index.js'
import type {CheckRender} from './check-task.js'
import {renderChecks} from './check-renders.js'
import {predictedRender} from '../shared/render-prediction.js'
import {noticeOf} from '../shared/notice.js'
import type {ApplyRun} from './run.js'
import {checkpoint} from '../shared/stopped.js'

/** Whether the check renders the pulled document `node` (not merged into its file, and with a body). */
function rendersForCheck(run: ApplyRun, id: string, node: LocalNode): boolean {
  return !run.mergedBases.has(id) && node.body !== undefined
}

/**
 * Records in `entry` what push will compare for the pulled document `node`, `rendered` its render when
 * `rendersForCheck`; reports a body that would not come back exactly.
 */
function checkDocument(
  run: ApplyRun,
  id: string,
  node: LocalNode,
  entry: StateEntry,
  rendered: CheckRender | undefined,
  conflicts: Set<string>
): void {
  delete entry.renderKey
  const merged = run.mergedBases.get(id)
  if (merged !== undefined) {
    // Merged into the file, and proved to render (as push renders, with its link options) to the platform's body.
    entry.sourceHash = sourceHashOf(merged.text)
    entry.renderedHash = merged.renderedHash
    return
  }
  if (node.sourceHash) entry.sourceHash = node.sourceHash
  else delete entry.sourceHash
  if (rendered === undefined) {
    delete entry.renderedHash
    return
  }
  if (rendered.complete) entry.renderedHash = rendered.hash
  // A body the platform did not store in canonical form comes back canonical: that is no loss.
  if (rendered.hash !== entry.remoteHash && !conflicts.has(id) && run.canonical.get(id) !== rendered.hash) {
    const message = 'The pulled file does not render back to the body on the platform; a push would rewrite it'
    run.result.diagnostics.push({severity: 'warning', file: node.file ?? node.path, message, rule: 'pull-not-exact'})
  }
}

/**
 * Scans the folder and checks every document pulled now (those of
 * `run.book.after`, the state's items already replaced). Only their bodies
 * are read and parsed: a pull that wrote nothing parses none.
 */
export async function verifyPulled(run: ApplyRun): Promise<ScanResult> {
  const {state, remote} = run.context
  const {signal} = run.options
  const pulled = new Set(run.plan.ops.filter((op) => run.book.after.has(op.id)).map((op) => op.file))
  // Nothing pulled nor written: the folder is as the plan's scan found it, and no body is to check.
  const unchanged = pulled.size === 0 && run.result.written.length === 0
  // The bodies written are not parsed again: the scan takes what their proof found (`handOverFacts`), by content.
  let scan: ScanResult
  try {
    scan = unchanged
      ? run.context.scan
      : await scanFolder(run.dir, {
          ignore: run.options.ignore ?? [],
          bodiesOf: pulled,
          // The trees the proof handed over are kept for the render below, which releases each once checked.
          keptTrees: handedTreesMax,
          // The files just written: their front matter is recorded, so the next (no-op) pull parses and writes none.
          frontMatter: await FrontMatterCache.load(run.dir),
          ...(run.options.links ? {links: run.options.links} : {}),
          ...(signal ? {onBodyRead: () => checkpoint(signal)} : {})
        })
  } finally {
    forgetHandedOver()
  }
  const idOf = new Map<string, string>()
  for (const [key, entry] of Object.entries(state.items)) if (entry.id) idOf.set(key, entry.id)
  const notice = await noticeOf(run.dir, run.options.notice, run.options.repoUrl)
  const context = planRenderContext(scan, remote, idOf, state, notice)
  for (const diagnostic of scan.diagnostics) {
    if (diagnostic.severity === 'error')
      run.result.diagnostics.push({
        ...diagnostic,
        severity: 'warning',
        message: `push will refuse this: ${diagnostic.message}`
      })
  }
  const conflicts = new Set(run.plan.ops.filter((op) => op.op === 'conflict').map((op) => op.id))
  const checked: Array<{id: string; node: LocalNode; entry: StateEntry}> = []
  for (const [key, entry] of Object.entries(state.items)) {
    const node = scan.byPath[key]
    if (node && entry.id && run.book.after.has(entry.id) && entry.remoteHash !== '')
      checked.push({id: entry.id, node, entry})
  }
  // Rendered on the conversion pool (the workers and this thread), then recorded in order.
  const rendering = checked.filter(({id, node}) => rendersForCheck(run, id, node))
  // A body whose proof predicted its render, and whose references resolve as predicted, is neither parsed nor rendered.
  const predicted = (node: LocalNode) => {
    const prediction = node.bodyKey === undefined ? undefined : run.predictions.get(node.bodyKey)
    return prediction && predictedRender(node.kind, node.resolutions, prediction, context)
  }
  const renders = await renderChecks(
    rendering.map(({node}) => node),
    context,
    conversionPool(),
    signal,
    predicted
  )
  run.predictions.clear()
  const renderOf = new Map(rendering.map(({id}, index) => [id, renders[index]]))
  for (const {id, node, entry} of checked) {
    checkDocument(run, id, node, entry, renderOf.get(id), conflicts)
    // Checked: its tree and render are let go of (rendering keeps both on the node), so the check holds one document's, not all.
    releaseRender(node)
  }
  return scan
}

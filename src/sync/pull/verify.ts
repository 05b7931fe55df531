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
  scanFolder,
  sourceHashOf,
  type LocalNode,
  type ScanResult,
  type StateEntry
} from '../../local/index.js'
import {planRenderContext} from '../shared/render-context.js'
import {releaseRender, renderBody, type RenderContext} from '../shared/render.js'
import {noticeOf} from '../shared/notice.js'
import type {ApplyRun} from './run.js'
import {checkpoint} from '../shared/stopped.js'

/** Records in `entry` what push will compare for the pulled document `node`; reports a body that would not come back exactly. */
function checkDocument(
  run: ApplyRun,
  id: string,
  node: LocalNode,
  entry: StateEntry,
  context: RenderContext,
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
  if (node.body === undefined) {
    delete entry.renderedHash
    return
  }
  const rendered = renderBody(node, context)
  if (rendered.missingLinks.length + rendered.missingAssets.length === 0) entry.renderedHash = rendered.hash
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
  for (const [key, entry] of Object.entries(state.items)) {
    const node = scan.byPath[key]
    if (!node || !entry.id || !run.book.after.has(entry.id) || entry.remoteHash === '') continue
    await checkpoint(signal)
    checkDocument(run, entry.id, node, entry, context, conflicts)
    // Checked: its tree and render are let go of (rendering keeps both on the node), so the check holds one document's, not all.
    releaseRender(node)
  }
  return scan
}

/**
 * The round trip in a pull: a document changed on the platform whose file
 * has a base (the file itself when nobody edited it, else the base store's
 * copy) is merged into the file instead of being written whole. Merged: the
 * file is written (only what changed) and recorded. The same block edited
 * on both sides: the file is left alone and the platform's side, patched
 * into the base, goes beside it as `NAME.remote.md`. A change no patch can
 * write faithfully: the whole remote version goes beside the file, with
 * the reason. Never a silent rewrite.
 */
import type {Root} from 'mdast'
import {parseKb, stringifyKb} from '../../../dialect/index.js'
import {dropRefusedDiagrams} from '../../../diagrams/index.js'
import {documentScanner, permissionsKey, readBase, sourceHashOf, type LocalPermissions} from '../../../local/index.js'
import type {MergeResult} from '../../../merge/index.js'
import {pullBody, type PulledBody} from '../../shared/document-body.js'
import {bodyHash} from '../../shared/remote.js'
import {writeAtomic} from '../../shared/document-files.js'
import {conflictFileOf} from '../../shared/conflicts.js'
import type {LocalizeContext} from '../../shared/localize.js'
import {planRenderContext} from '../../shared/render-context.js'
import {noticeBlock, noticeOf} from '../../shared/notice.js'
import {managesPermissions, permissionsSetting} from '../../shared/permissions-managed.js'
import type {ItemRef} from '../../shared/platform-links.js'
import {linkWarnings} from '../link-targets.js'
import {writePermissionFile} from '../permission-files.js'
import type {PullOp} from '../plan.js'
import type {DocumentFile} from '../document-file.js'
import type {ApplyRun} from '../run.js'
import {recordPulled} from '../state-book.js'
import {mergeWithBase, platformSide, type DocumentMerge, type MergeSetting} from './merge-input.js'
import {patchTitle} from './title-patch.js'
import {patchPermissions} from './permissions-patch.js'

/** The merge setting of a run: one scanner of the folder, renders with the ids the documents have after the pull. */
export async function mergeSettingOf(run: ApplyRun): Promise<MergeSetting> {
  const ids = new Map(Object.entries(run.plan.paths).map(([id, at]) => [at, id]))
  // The notice push puts atop each article is part of what it renders, so of the base too.
  const notice = await noticeOf(run.dir, run.options.notice, run.options.repoUrl)
  return {
    // Broken links as a push that published them did (their text): a base with one was pushed so, or its target went since.
    scanner: documentScanner(run.dir, {
      ignore: run.options.ignore ?? [],
      links: {...run.options.links, brokenLinks: 'warn'},
      ...(run.options.locales ? {locales: run.options.locales} : {})
    }),
    renderContext: (scan) => planRenderContext(scan, run.context.remote, ids, run.context.state, notice),
    prepare: (scan, node) => dropRefusedDiagrams(scan, run.context.state, node),
    ...(notice ? {notice} : {})
  }
}

/** What pulling one document by merge is given: its conversion, and the whole text pull would write without a base. */
export interface MergeRequest {
  op: PullOp
  pulled: PulledBody
  localize: LocalizeContext
  declared: LocalPermissions | undefined
  /** Link targets the conversions found missing (for the warnings). */
  missed: ItemRef[]
  /** The whole file pull writes without a base (the copy beside an unmergeable file). */
  whole(): string
  /** The document's file, read and scanned once for the whole pull of the document. */
  local: DocumentFile
}

/**
 * Pulls the document of `request` by merging it into its file; false when
 * it has no base to merge against (then it is written whole, or a conflict
 * copy, as before).
 */
export async function pullByMerge(run: ApplyRun, setting: MergeSetting, given: MergeRequest): Promise<boolean> {
  const entry = run.book.before.get(given.op.id)?.entry
  if (!entry?.sourceHash || given.op.unverified) return false
  // Files a last pull could not download: the file names their URLs, which the body as the platform holds it does too.
  if (entry.missingFiles) return false
  if (given.op.op !== 'update' && given.op.op !== 'conflict' && given.op.op !== 'move') return false
  const op = {...given.op, file: given.local.file}
  const request = {...given, op}
  const raw = await given.local.raw()
  if (raw === undefined) return false
  const local = raw.replace(/\r\n?/g, '\n')
  const base = sourceHashOf(local) === entry.sourceHash ? local : await readBase(run.dir, entry.sourceHash)
  if (base === undefined) return false
  const document: DocumentMerge = {
    file: op.file,
    base: base.replace(/\r\n?/g, '\n'),
    local,
    remoteTree: platformTree(setting, op, request.pulled.canonical),
    // A `# Title` block would leave the body as the title on push: written as a setext heading, as pull writes a body.
    toAuthor: (blocks: Root) => pullBody(stringifyKb(blocks), op.title, request.localize).text
  }
  const result = await mergeWithBase(setting, document)
  // A document that moved, or links to one that did (its body unchanged on the platform), is patched where its links
  // changed; one no patch writes faithfully is written whole, as pull writes it, never a conflict copy: nobody edited it
  // (one edited here goes beside it, as any conflict).
  if (result.status !== 'merged' && (op.refresh || op.from !== undefined) && !op.localEdits) return false
  const lineEnds = (text: string) => (raw.includes('\r\n') ? text.replace(/\n/g, '\r\n') : text)
  const front = await frontMatterPatch(run, request, entry.title)
  const titled = front.patch
  const outcome =
    front.titleClash && result.status === 'merged' ? await titleConflict(setting, document, front) : result
  if (outcome.status === 'merged') await writeMerged(run, setting, request, document, titled(outcome.text), lineEnds)
  else
    await writeBeside(
      run,
      op,
      outcome,
      lineEnds(outcome.status === 'conflict' ? titled(outcome.theirs) : request.whole())
    )
  return true
}

/**
 * The title retitled both here and on the platform, to different titles: a
 * conflict on the title's line, the platform's side (the base patched with
 * its blocks, its title written by the caller) beside the file. Patched
 * into the file, the local title was silently lost.
 */
async function titleConflict(
  setting: MergeSetting,
  document: DocumentMerge,
  front: FrontMatterPatch
): Promise<MergeResult> {
  const theirs = (await platformSide(setting, document)) ?? document.base
  const message = 'the title was changed here and on the platform'
  return {status: 'conflict', theirs, conflicts: [{line: front.titleLine ?? 1, message}]}
}

/**
 * The platform's body as push would render it: pull's conversion took the
 * notice off the top, and push puts it back, so the base (rendered as push
 * renders) and the platform's side agree on it and the merge leaves it alone.
 */
function platformTree(setting: MergeSetting, op: PullOp, canonical: string): Root {
  const tree = parseKb(canonical)
  if (setting.notice && op.type === 'article') tree.children.unshift(noticeBlock(setting.notice, op.path))
  return tree
}

/** Writes and records a merged file; its base is the platform's side alone when the file holds local edits too. */
async function writeMerged(
  run: ApplyRun,
  setting: MergeSetting,
  request: MergeRequest,
  document: DocumentMerge,
  text: string,
  lineEnds: (text: string) => string
): Promise<void> {
  const {op} = request
  let synced = text
  if (document.local !== document.base) {
    const platform = await platformSide(setting, document)
    if (platform === undefined) {
      await writeBeside(
        run,
        op,
        {status: 'unmergeable', reason: 'the platform side alone does not merge'},
        request.whole()
      )
      return
    }
    synced = platform
  }
  // Proved to render, as push renders, to the platform's body: what the state records, whatever verify's scan says.
  run.mergedBases.set(op.id, {text: synced, renderedHash: bodyHash(stringifyKb(document.remoteTree)), written: text})
  const changed = await writeAtomic(run.dir, op.file, lineEnds(text))
  if (changed) run.result.written.push(op.file)
  const item = run.context.remote.items[op.id]!
  run.result.diagnostics.push(
    ...linkWarnings(
      op.file,
      text,
      request.missed,
      request.pulled.rewritten ?? [],
      (id) => run.context.remote.items[id]?.title
    )
  )
  await writePermissionFile(run, op, request.declared)
  const detail = run.context.remote.details[op.id]!
  recordPulled(run, op, item, detail, request.declared, {sourceHash: sourceHashOf(synced)})
  await run.store.saveChanges()
  run.recorded = true
  run.emit({type: 'done', op, changed})
}

/** Leaves the file as it is and writes `text` beside it as `NAME.remote.md`, saying why. */
async function writeBeside(
  run: ApplyRun,
  op: PullOp,
  result: Exclude<MergeResult, {status: 'merged'}>,
  text: string
): Promise<void> {
  const file = conflictFileOf(op.file)
  await writeAtomic(run.dir, file, text)
  run.result.written.push(file)
  run.result.conflicts.push(file)
  run.emit({type: 'conflict-file', op, file, ...(result.status === 'conflict' ? {} : {unmergeable: true as const})})
  if (result.status === 'conflict') {
    const lines = result.conflicts.map((conflict) => conflict.line)
    run.result.diagnostics.push({
      severity: 'warning',
      file: op.file,
      ...(lines.length > 0 ? {line: lines[0]} : {}),
      message: `Edited here and on the platform in the same place (line${lines.length > 1 ? 's' : ''} ${lines.join(', ')}): the file is kept as it is, the platform's version is in ${file}`,
      hint: `Keep yours with \`kbsync push --force\`, take the platform's by moving ${file} over the file, or merge them by hand and remove ${file}`,
      rule: 'pull-conflict'
    })
    return
  }
  run.result.diagnostics.push({
    severity: 'warning',
    file: op.file,
    ...(result.line !== undefined ? {line: result.line} : {}),
    message: `The platform's edit cannot be written into this file faithfully (${result.reason}): the file is kept as it is, the platform's whole version is in ${file}`,
    hint: `Bring the edit over by hand and remove ${file}, or take the platform's version by moving ${file} over the file`,
    rule: 'pull-unmergeable'
  })
}

/**
 * A function giving a text what changed on the platform in the front
 * matter's keys: the title where the file keeps it (front matter `title`, or
 * the heading it came from), when it changed; an article's `permissions`,
 * when they were read and differ from the file's (added only in a folder
 * that manages permissions). Every other byte stays.
 */
async function frontMatterPatch(run: ApplyRun, request: MergeRequest, baseTitle: string): Promise<FrontMatterPatch> {
  const {op, declared} = request
  const item = run.context.remote.items[op.id]!
  const node = (await request.local.scanned())?.node
  if (!node) return {patch: (text) => text, titleClash: false}
  const retitle = item.title !== baseTitle && node.title !== item.title
  const place = {from: node.titleFrom, headingLine: node.titleLine}
  const permissions =
    item.type === 'article' && declared && op.id in run.context.remote.permissions ? declared : undefined
  const repermit =
    permissions !== undefined &&
    (node.permissions === undefined || permissionsKey(node.permissions) !== permissionsKey(permissions))
  const add = managesPermissions(run.context.scan, permissionsSetting(run.options.permissions))
  const patch = (text: string) => {
    let patched = retitle ? (patchTitle(text, place, item.title) ?? text) : text
    if (repermit) patched = patchPermissions(patched, permissions!, add) ?? patched
    return patched
  }
  return {
    patch,
    titleClash: retitle && node.title !== baseTitle,
    ...(node.titleLine ? {titleLine: node.titleLine} : {})
  }
}

/** What the platform changed in the front matter's keys, as a patch, and whether the file retitled too. */
interface FrontMatterPatch {
  patch(text: string): string
  /** The title changed here and on the platform, to different titles. */
  titleClash: boolean
  /** The line the file's title is on, when a heading gives it. */
  titleLine?: number
}

/**
 * The documents of a pull: each remote body converted to the text of its
 * file (`pullBody`), then adopted (the file already says it), written as a
 * conflict copy, or written (atomically, only when its text changes) with
 * its topic's permission file, and recorded in the journal as it lands.
 */
import path from 'node:path'
import {handOverFacts, sourceHashOf, writeFileInside, type LocalPermissions} from '../../local/index.js'
import {bodyHash, releaseBody} from '../shared/remote.js'
import {diagramSourceLookup, keepAsCode} from '../../diagrams/index.js'
import {pullBody, type BodyPlace, type PulledBody} from '../shared/document-body.js'
import {documentText, readText} from '../shared/document-files.js'
import {adoptIfInSync, type Adoption} from './adoption.js'
import {writeConflictCopy} from './conflict-copies.js'
import {documentsAfterPull, linkWarnings} from './link-targets.js'
import {writePermissionFile} from './permission-files.js'
import {bodyPlaceOf, declaredAfterPull, newFilesGetIds, withTree, type FileFields} from './body-place.js'
import type {PullOp} from './plan.js'
import {itemPageUrl, linkForms, type ItemRef} from '../shared/platform-links.js'
import type {ApplyRun} from './run.js'
import {recordPulled} from './state-book.js'
import {fetchDeferred} from './downloads.js'
import {ownCopies} from './own-copies.js'
import {documentFile} from './document-file.js'
import {handOverWrittenFrontMatter} from './front-matter-handover.js'
import {checkpoint} from '../shared/stopped.js'
import {isSectionOp, pullSection} from './sections.js'
import type {LocalizeContext} from '../shared/localize.js'
import {mergeSettingOf, pullByMerge, type MergeSetting} from './round-trip/index.js'

/** How bodies are converted in one run: where linked documents are after the pull, the platform's URL forms. */
interface Conversion {
  documentsFor(missed: ItemRef[]): (kind: ItemRef['kind'], id: string) => string | undefined
  urls: {articleUrl?: string}
  forms: ReturnType<typeof linkForms>
}

/** The conversion of the run's bodies. */
function conversionOf(run: ApplyRun): Conversion {
  const documentAfter = documentsAfterPull(run.plan, run.context)
  const urls = run.options.articleUrl !== undefined ? {articleUrl: run.options.articleUrl} : {}
  return {
    // The file a link of a body names; a document the folder will not hold is noted in `missed` and keeps its id.
    documentsFor: (missed) => (kind, id) => {
      const at = documentAfter(kind, id)
      if (at === null && !missed.some((ref) => ref.id === id)) missed.push({kind, id})
      return at ?? undefined
    },
    urls,
    // The URL forms a link of a pulled body is matched against, made ready once for every body.
    forms: linkForms(urls)
  }
}

/** What one document's conversion finds and is given: link targets missing (noted), the author's own copies of its files. */
interface FoundRefs {
  missed: ItemRef[]
  own: ReadonlyMap<string, string>
}

/** How the body of `op` is written for its file: links relative to it, files downloaded, the platform's URL forms. */
function localizeOf(run: ApplyRun, conversion: Conversion, op: PullOp, found: FoundRefs) {
  const {missed, own} = found
  const item = run.context.remote.items[op.id]!
  const links = {forms: conversion.forms, pageUrl: itemPageUrl({kind: item.type, id: op.id}, conversion.urls)}
  // The author's copy where the file names one (`own-copies.ts`), else the one pulled.
  const assetOf = (url: string) => (op.op === 'conflict' ? undefined : (own.get(url) ?? run.files.local.get(url)))
  const answers = {
    documentOf: conversion.documentsFor(missed),
    assetOf,
    diagramOf: diagramSourceLookup(run.dir, run.context.state)
  }
  return {answers, links, context: {file: op.file, ...answers, links} satisfies LocalizeContext}
}

/** Converts the body of `op` (to sit at `place` in its file) and says what is odd about it (title spaces, a lossy form). */
function convert(run: ApplyRun, conversion: Conversion, op: PullOp, found: FoundRefs, place: BodyPlace): PulledBody {
  const {missed} = found
  const detail = run.context.remote.details[op.id]!
  const item = run.context.remote.items[op.id]!
  const {answers, links} = localizeOf(run, conversion, op, found)
  // The Mermaid blocks the platform holds as code stay code on push (`keepAsCode`): a push after this pull changes nothing.
  keepAsCode(run.dir, run.facts.get(op.id)?.codeDiagrams)
  const early = run.context.speculation.take(op.id, op.file, answers)
  // Not taken: the targets noted while checking it are noted again by the conversion, in its order.
  if (!early) missed.length = 0
  // What the conversion is given must be what `speculation.ts` gives its early one (or asks again in `take`).
  const pulled = early ?? pullBody(detail.body, item.title, {file: op.file, ...answers, links}, withTree(place))
  run.canonical.set(op.id, bodyHash(pulled.canonical))
  if (item.title !== item.title.trim()) {
    const message = `The title "${item.title}" has leading or trailing spaces, which front matter does not keep; a push would retitle it`
    run.result.diagnostics.push({severity: 'warning', file: op.file, message, rule: 'title-whitespace'})
  }
  if (pulled.form === 'lossy') {
    const message =
      'This body cannot be written so that a push gives it back exactly; a push after editing the file may change other parts of it'
    run.result.diagnostics.push({severity: 'warning', file: op.file, message, rule: 'pull-lossy'})
  }
  return pulled
}

/** The permissions the document of `op` declares after the pull: as read, else (not read) as its file has them. */
function declaredOf(run: ApplyRun, op: PullOp): LocalPermissions | undefined {
  const {remote, scan, state} = run.context
  const inFile = scan.byPath[run.book.before.get(op.id)?.key ?? op.path]?.permissions
  return declaredAfterPull(remote, state, op.id, inFile)
}

/** What pulling the documents of one run shares: the conversion, adoption, and the merge's setting. */
interface DocumentsRun {
  conversion: Conversion
  adoption: Adoption
  merge: MergeSetting
  /** Whether a new file gets a `kb_id` line (`writesId`). */
  newFilesGetIds: boolean
}

/** Pulls the document of `op`: adopts it, merges the platform's edit into its file, writes a conflict copy, or writes its file. */
async function pullDocument(run: ApplyRun, step: DocumentsRun, op: PullOp): Promise<void> {
  const urls = run.facts.get(op.id)?.fileUrls ?? []
  if (isSectionOp(op)) {
    await fetchDeferred(run, urls)
    return pullSection(run, op)
  }
  const local = documentFile(run, step.merge.scanner, op)
  const own = await ownCopies(run, local, op, urls)
  const item = run.context.remote.items[op.id]!
  const missed: ItemRef[] = []
  const declared = declaredOf(run, op)
  const fields: FileFields = {
    title: item.title,
    ...(writesId(run, step, op) ? {id: op.id} : {}),
    ...(item.type === 'article' ? {permissions: declared} : {})
  }
  const pulled = convert(run, step.conversion, op, {missed, own}, bodyPlaceOf(fields))
  if (await adoptIfInSync(run, step.adoption, op, declared)) return
  const whole = () => documentText(fields, pulled.text)
  const localize = localizeOf(run, step.conversion, op, {missed, own}).context
  if (await pullByMerge(run, step.merge, {op, pulled, localize, declared, missed, whole, local})) return
  const text = whole()
  // Read once: the conflict check and the write's own (no write when the file says it already) share it.
  const current = await readText(path.join(run.dir, op.file))
  if (await writeConflictCopy(run, op, text, current)) return
  const changed = current !== text
  if (changed) writeFileInside(run.dir, op.file, text)
  if (changed) run.result.written.push(op.file)
  handOverWrittenFrontMatter(fields, text)
  // The proof parsed this body where the file holds it: the check after the pull takes what it found.
  if (pulled.parsed) handOverFacts(pulled.parsed.key, pulled.parsed.facts, pulled.parsed.tree)
  // And what its render will be, should the folder resolve its references as the proof restored them.
  if (pulled.parsed?.render) run.predictions.set(pulled.parsed.key, pulled.parsed.render)
  run.result.diagnostics.push(
    ...linkWarnings(op.file, text, missed, pulled.rewritten ?? [], (id) => run.context.remote.items[id]?.title)
  )
  await writePermissionFile(run, op, declared)
  recordPulled(run, op, item, run.context.remote.details[op.id]!, declared, {sourceHash: sourceHashOf(text)})
  await run.store.saveChanges()
  run.recorded = true
  run.emit({type: 'done', op, changed: changed || op.from !== undefined})
}

/** Pulls the documents `ops` in order; a failure is the op's, and the others go on. */
export async function pullDocuments(run: ApplyRun, adoption: Adoption, ops: readonly PullOp[]): Promise<void> {
  const step: DocumentsRun = {
    conversion: conversionOf(run),
    adoption,
    merge: await mergeSettingOf(run),
    newFilesGetIds: newFilesGetIds(run.context.scan)
  }
  for (const op of ops) {
    // Stopped: the documents written so far are recorded; the others are the next run's.
    await checkpoint(run.options.signal)
    try {
      await pullDocument(run, step, op)
    } catch (error) {
      run.fail(op, error)
    } finally {
      // Written (or failed): nothing after this step reads the body, and the early conversion was taken.
      releaseBody(run.context.remote.details[op.id])
    }
  }
}

/**
 * Whether the file of `op` gets a `kb_id` line: a file that exists keeps
 * what it has (never one added), a new file gets one only in a folder whose
 * documents carry them (pulled before, or empty: a first pull).
 */
function writesId(run: ApplyRun, step: DocumentsRun, op: PullOp): boolean {
  const existing = run.context.scan.byPath[op.from ?? op.path]
  if (existing && existing.file !== undefined) return existing.kbId !== undefined
  return step.newFilesGetIds
}

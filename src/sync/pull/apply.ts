/**
 * `applyPull`: carries out a pull plan. Moves first (through a staging
 * folder, so swaps and moves into moved folders work), then downloads, then
 * document files (each written atomically, and only when its text changes),
 * then deletions. Last, the folder is scanned and every pulled document is
 * rendered exactly as push will render it: that gives the state its hashes,
 * so a push right after a pull sends nothing, and it proves each body comes
 * back unchanged (a body that would not is reported).
 */
import path from 'node:path'
import type {Root} from 'mdast'
import * as dialect from '../../dialect/index.js'
import {
  existsInside,
  mapLimit,
  permissionsKey,
  removeEmptyFolderInside,
  removeInside,
  renameInside,
  scanFolder,
  sourceHashOf,
  stateFiles,
  StateStore,
  type Diagnostic,
  type LocalPermissions,
  type StateEntry
} from '../../local/index.js'
import {shownUrl} from '../../api/index.js'
import {conflictFileOf} from '../shared/conflicts.js'
import {permissionsSeenAfterPull} from '../shared/permissions-seen.js'
import {bodyHash, type RemoteDetail, type RemoteItem} from '../shared/remote.js'
import {planRenderContext} from '../shared/render-context.js'
import {renderBody} from '../shared/render.js'
import {assetsFolder, fetchAsset, planAssets, type AssetPlan} from './assets.js'
import {pullBody} from '../shared/document-body.js'
import {documentText, permissionsText, readText, writeAtomic} from '../shared/document-files.js'
import {alreadyInSync} from './in-sync.js'
import {documentFile} from '../shared/document-layout.js'
import {documentsAfterPull, linkWarnings} from './link-targets.js'
import {fileUrls} from './localize.js'
import {declaredPermissions, permissionsAsRecorded, type PullOp, type PullPlan} from './plan.js'
import {itemPageUrl, linkForms, type ItemRef} from './platform-links.js'
import type {PullContext} from './pull.js'
import type {PullOptions, PullResult} from './types.js'

const parseKb = (text: string): Root => (dialect as unknown as {parseKb(value: string): Root}).parseKb(text)

/** Where moves are staged, relative to the folder. */
const stagingFolder = '.kbsync/moving'

/** The permission file of the topic at `topicPath` (`''`: the root). */
const permissionsFile = (topicPath: string): string => path.posix.join(topicPath, '_permissions.yml')

/**
 * The paths (relative to the folder) that applying `plan` may write, move or
 * remove (pure): `planPullRun` checks them all before anything is written,
 * so a link out of the folder refuses the pull instead of half of it.
 */
export function plannedWrites(plan: PullPlan, remote: PullContext['remote']): string[] {
  const paths = [...stateFiles]
  for (const op of plan.ops) {
    if (op.from !== undefined) paths.push(op.from, op.path, stagingFolder)
    if (op.type === 'article' && op.from !== undefined) paths.push(assetsFolder(op.from), assetsFolder(op.path))
    if (op.op === 'delete') paths.push(op.file, assetsFolder(op.file))
    const detail = op.op === 'delete' ? undefined : remote.details[op.id]
    if (detail === undefined) continue
    paths.push(op.file)
    if (op.op === 'conflict' || op.unverified) paths.push(conflictFileOf(op.file))
    if (op.type === 'topic') paths.push(permissionsFile(op.path))
    if (detail.files.length > 0) paths.push(assetsFolder(op.file))
  }
  return paths
}

/** Applies `plan` (made by `planPullRun` with the same options). */
export async function applyPull(plan: PullPlan, context: PullContext, options: PullOptions): Promise<PullResult> {
  const {scan, state, remote} = context
  const dir = scan.dir
  const result: PullResult = {plan, status: 'ok', written: [], conflicts: [], failed: [], diagnostics: [...plan.diagnostics]}
  const emit = options.onEvent ?? (() => undefined)
  const fail = (op: PullOp, error: unknown) => {
    const message = error instanceof Error ? error.message : String(error)
    result.failed.push({op, error: message})
    emit({type: 'failed', op, error: message})
  }
  const store = new StateStore(dir, state)
  // A pull that changes nothing leaves the state file as it is (it may be committed: no noise in git).
  const initial = JSON.stringify(state)
  let recorded = false
  const before = new Map<string, {key: string; entry: StateEntry}>()
  for (const [key, entry] of Object.entries(state.items)) if (entry.id) before.set(entry.id, {key, entry})
  /** Entries after the pull, by id: key and entry. */
  const after = new Map<string, {key: string; entry: StateEntry}>()

  const moves = plan.ops.filter((op) => op.from !== undefined && op.op !== 'delete' && op.op !== 'conflict')
  await applyMoves(dir, moves, result)
  if (moves.length > 0) {
    // Recorded at once: a pull stopped from here on finds the files where they now are, and rewrites the links to them.
    rekeyMoved(state, moves)
    state.linksPending = true
    await store.save()
    recorded = true
  }
  /** Where each item's state entry is keyed now (after the moves), for the journal. */
  const keyNow = new Map<string, string>()
  for (const [key, entry] of Object.entries(state.items)) if (entry.id) keyNow.set(entry.id, key)

  // Documents and the files their bodies use.
  const textOps = plan.ops.filter((op) => op.op !== 'delete' && remote.details[op.id] !== undefined)
  const trees = new Map(textOps.map((op) => [op.id, parseKb(remote.details[op.id]!.body)]))
  const assets = planAssets(textOps.filter((op) => op.op !== 'conflict').map((op) => ({id: op.id, path: op.path, file: op.file, tree: trees.get(op.id)!, detail: remote.details[op.id]!})))
  const local = new Map<string, string>()
  const downloadedNow = new Set<string>()
  await mapLimit([...assets.values()], options.concurrency ?? 8, async (asset: AssetPlan) => {
    try {
      const outcome = await fetchAsset(dir, asset, state, (url, destPath) => options.client.downloadFile(url, destPath))
      if (outcome.downloaded) {
        result.written.push(asset.path)
        emit({type: 'download', url: asset.url, path: asset.path})
      }
      if (outcome.local) {
        local.set(asset.url, asset.path)
        if (outcome.downloaded) downloadedNow.add(asset.url)
      } else if (outcome.downloaded) {
        removeInside(dir, asset.path)
      }
    } catch (error) {
      result.diagnostics.push({severity: 'warning', file: asset.path, message: `Could not download ${shownUrl(asset.url)}: ${(error as Error).message}; the body keeps the URL`, rule: 'download-failed'})
    }
  })
  const documentAfter = documentsAfterPull(plan, context)
  /** The file a link of a body names; a document the folder will not hold is noted in `missed` and keeps its id. */
  const documentsFor = (missed: ItemRef[]) => (kind: ItemRef['kind'], id: string) => {
    const at = documentAfter(kind, id)
    if (at === null && !missed.some((ref) => ref.id === id)) missed.push({kind, id})
    return at ?? undefined
  }
  const urls = {...(options.articleUrl !== undefined ? {articleUrl: options.articleUrl} : {})}
  // The URL forms a link of a pulled body is matched against, made ready once for every body.
  const forms = linkForms(urls)
  /** Records `op`'s item as pulled: in `after`, and in the journal as each file lands (a pull stopped later does not take its own writes for local edits). */
  const record = (op: PullOp, item: RemoteItem, detail: RemoteDetail, declared: LocalPermissions | undefined, written: {sourceHash?: string}) => {
    const seen = permissionsSeenAfterPull(before.get(op.id)?.entry, item.updatedAt, op.id in remote.permissions)
    after.set(op.id, {
      key: op.path,
      entry: {
        id: op.id,
        type: item.type,
        title: item.title,
        parentId: item.parentId,
        remoteVersion: detail.version,
        remoteUpdatedAt: item.updatedAt ?? detail.updatedAt,
        remoteHash: detail.bodyHash,
        ...(declared ? {permissionsKey: permissionsKey(declared)} : {}),
        ...(seen !== undefined ? {permissionsSeenAt: seen} : {}),
        ...(fileUrls(trees.get(op.id)!).some((url) => assets.has(url) && !local.has(url)) ? {missingFiles: true} : {})
      }
    })
    const previousKey = keyNow.get(op.id)
    if (previousKey !== undefined && previousKey !== op.path) store.setItem(previousKey, undefined)
    keyNow.set(op.id, op.path)
    store.setItem(op.path, {...after.get(op.id)!.entry, ...written})
  }
  // What push would render for a document already in the folder: its body from a full scan (the plan's skipped the
  // bodies), made after the moves, so that links name documents where the pull leaves them.
  const adoptable = plan.ops.filter((op) => op.unverified && op.from === undefined)
  const adoptScan = adoptable.length > 0 ? await scanFolder(dir, {ignore: options.ignore ?? []}) : scan
  const adoptContext = planRenderContext(adoptScan, remote, new Map(Object.entries(plan.paths).map(([id, at]) => [at, id])), state)
  const adopted = new Set<string>()
  const canonical = new Map<string, string>()
  for (const op of textOps) {
    try {
      const detail = remote.details[op.id]!
      const item = remote.items[op.id]!
      const isConflict = op.op === 'conflict'
      const missed: ItemRef[] = []
      const links = {forms, pageUrl: itemPageUrl({kind: item.type, id: op.id}, urls)}
      const pulled = pullBody(detail.body, item.title, {file: op.file, documentOf: documentsFor(missed), assetOf: (url) => (isConflict ? undefined : local.get(url)), links})
      canonical.set(op.id, bodyHash(pulled.canonical))
      if (item.title !== item.title.trim()) {
        result.diagnostics.push({severity: 'warning', file: op.file, message: `The title "${item.title}" has leading or trailing spaces, which front matter does not keep; a push would retitle it`, rule: 'title-whitespace'})
      }
      if (pulled.form === 'lossy') {
        result.diagnostics.push({severity: 'warning', file: op.file, message: 'This body cannot be written so that a push gives it back exactly; a push after editing the file may change other parts of it', rule: 'pull-lossy'})
      }
      const read = op.id in remote.permissions
      const existing = scan.byPath[before.get(op.id)?.key ?? op.path]
      const declared: LocalPermissions | undefined = read ? declaredPermissions(item.type, remote.permissions[op.id]) : existing?.permissions
      // Only where nothing moves: the scan's links name documents where they are before the pull.
      const found = adoptScan.byPath[op.path]
      if (op.unverified && op.from === undefined && found && alreadyInSync(found, item, detail, declared, adoptContext)) {
        // The file already says what the platform holds: kept as the writer wrote it, and recorded as synced.
        if (found.body !== undefined) canonical.set(op.id, renderBody(found, adoptContext).hash)
        record(op, item, detail, declared, {...(found.sourceHash ? {sourceHash: found.sourceHash} : {})})
        adopted.add(op.id)
        await store.saveChanges()
        recorded = true
        emit({type: 'done', op, changed: false})
        continue
      }
      const text = documentText({title: item.title, id: op.id, ...(item.type === 'article' ? {permissions: declared} : {})}, pulled.text)
      const current = await readText(path.join(dir, op.file))
      if (isConflict || (op.unverified && current !== undefined && current !== text)) {
        if (current === text) {
          // The file already holds the remote version (the conflict was resolved by taking it).
        } else {
          const file = conflictFileOf(op.file)
          await writeAtomic(dir, file, text)
          result.written.push(file)
          result.conflicts.push(file)
          emit({type: 'conflict-file', op, file})
          // An unsynced pinned file keeps no baseline that would let a push overwrite the remote silently.
          if (!before.has(op.id)) after.set(op.id, {key: op.path, entry: {id: op.id, type: item.type, title: item.title, parentId: item.parentId, remoteHash: ''}})
          continue
        }
      }
      const changed = await writeAtomic(dir, op.file, text)
      if (changed) result.written.push(op.file)
      result.diagnostics.push(...linkWarnings(op.file, text, missed, pulled.rewritten ?? [], (id) => remote.items[id]?.title))
      const written = {sourceHash: sourceHashOf(text)}
      if (item.type === 'topic') {
        const file = permissionsFile(op.path)
        if (declared && read) {
          if (await writeAtomic(dir, file, permissionsText(declared))) result.written.push(file)
        } else if (read && before.get(op.id)?.entry.permissionsKey !== undefined && (await readText(path.join(dir, file))) !== undefined) {
          removeInside(dir, file)
          result.written.push(file)
        }
      }
      record(op, item, detail, declared, written)
      await store.saveChanges()
      recorded = true
      emit({type: 'done', op, changed: changed || op.from !== undefined})
    } catch (error) {
      fail(op, error)
    }
  }
  // Copies downloaded now for documents kept as they are: those use their own files (the state has each content's URL).
  if (adopted.size > 0) {
    const usedByWritten = new Set(textOps.filter((op) => !adopted.has(op.id)).flatMap((op) => fileUrls(trees.get(op.id)!)))
    for (const asset of assets.values()) {
      if (!adopted.has(asset.ownerId) || usedByWritten.has(asset.url) || !downloadedNow.has(asset.url)) continue
      removeInside(dir, asset.path)
      result.written = result.written.filter((file) => file !== asset.path)
      removeIfEmpty(dir, path.posix.dirname(asset.path))
      removeIfEmpty(dir, path.posix.dirname(path.posix.dirname(asset.path)))
    }
  }
  // Children before their folders.
  // A deletion's path is where the document was before this pull: a folder above it may have moved just now.
  const deletions = plan.ops
    .filter((o) => o.op === 'delete')
    .map((o) => relocated(o, moves))
    .sort((a, b) => b.path.split('/').length - a.path.split('/').length)
  for (const op of deletions) {
    try {
      deleteDocument(dir, op)
      result.written.push(op.file)
      before.delete(op.id)
      emit({type: 'done', op, changed: true})
    } catch (error) {
      fail(op, error)
    }
  }
  // The state: one entry per remote item where its file is, old entries where nothing was written.
  const items: Record<string, StateEntry> = {}
  const skip = new Set(plan.ops.filter((op) => op.op === 'delete').map((op) => op.id))
  for (const [key, entry] of Object.entries(state.items)) {
    if (entry.id === undefined) items[key] = entry
    else if (!skip.has(entry.id) && !after.has(entry.id)) {
      const at = plan.paths[entry.id]
      const moved = at !== undefined && scan.byPath[key] !== undefined && !plan.ops.some((op) => op.id === entry.id && op.op === 'conflict') ? at : key
      // Permissions read and found as recorded are known at this `updated_at`: the next pull need not read them.
      const seen = permissionsSeenAfterPull(entry, remote.items[entry.id]?.updatedAt, permissionsAsRecorded(remote, entry.id, entry))
      items[moved] = seen === entry.permissionsSeenAt ? entry : {...entry, permissionsSeenAt: seen}
    }
  }
  for (const {key, entry} of after.values()) items[key] = entry
  state.items = items
  delete state.linksPending
  await verify(dir, plan, context, new Set(after.keys()), canonical, result, options.ignore)
  if (recorded || JSON.stringify(state) !== initial) await store.save()
  await store.close()
  result.status = result.failed.length > 0 ? 'failed' : result.conflicts.length > 0 || plan.ops.some((op) => op.op === 'conflict' && !after.has(op.id)) ? 'conflict' : 'ok'
  return result
}

/**
 * Scans the folder and renders each document pulled now as push will:
 * records the hashes push compares, and reports a body that would not come
 * back exactly.
 */
async function verify(dir: string, plan: PullPlan, {state, remote}: PullContext, pulled: Set<string>, canonical: Map<string, string>, result: PullResult, ignore: readonly string[] = []): Promise<void> {
  const scan = await scanFolder(dir, {ignore})
  const idOf = new Map<string, string>()
  for (const [key, entry] of Object.entries(state.items)) if (entry.id) idOf.set(key, entry.id)
  const context = planRenderContext(scan, remote, idOf, state)
  for (const diagnostic of scan.diagnostics) {
    if (diagnostic.severity === 'error') result.diagnostics.push({...diagnostic, severity: 'warning', message: `push will refuse this: ${diagnostic.message}`})
  }
  for (const [key, entry] of Object.entries(state.items)) {
    const node = scan.byPath[key]
    if (!node || !entry.id) continue
    if (pulled.has(entry.id) && entry.remoteHash !== '') {
      if (node.sourceHash) entry.sourceHash = node.sourceHash
      else delete entry.sourceHash
      delete entry.renderKey
      if (node.body !== undefined) {
        const rendered = renderBody(node, context)
        if (rendered.missingLinks.length + rendered.missingAssets.length === 0) entry.renderedHash = rendered.hash
        if (rendered.hash !== entry.remoteHash && !plan.ops.some((op) => op.id === entry.id && op.op === 'conflict')) {
          // A body the platform did not store in canonical form comes back canonical: that is no loss.
          if (canonical.get(entry.id) !== rendered.hash) {
            result.diagnostics.push({severity: 'warning', file: node.file ?? key, message: 'The pulled file does not render back to the body on the platform; a push would rewrite it', rule: 'pull-not-exact'})
          }
        }
      } else {
        delete entry.renderedHash
      }
    }
  }
}

/** Re-keys the state entries of moved documents (and of everything under a moved folder) to where they now are. */
function rekeyMoved(state: PullContext['state'], moves: readonly PullOp[]): void {
  const items: typeof state.items = {}
  for (const [key, entry] of Object.entries(state.items)) items[movedPath(key, moves)] = entry
  state.items = items
}

/** `op` with its path (and file) under the place a moved folder above it went to. */
function relocated(op: PullOp, moves: readonly PullOp[]): PullOp {
  return {...op, path: movedPath(op.path, moves), file: movedPath(op.file, moves)}
}

/** Where `docPath` is after `moves`: where it moved itself, or under the deepest moved folder above it. */
function movedPath(docPath: string, moves: readonly PullOp[]): string {
  let move: PullOp | undefined
  for (const m of moves) {
    const applies = docPath === m.from || (m.type === 'topic' && docPath.startsWith(m.from! + '/'))
    if (applies && (!move || m.from!.length > move.from!.length)) move = m
  }
  return move ? move.path + docPath.slice(move.from!.length) : docPath
}

/** Moves documents through `.kbsync/moving/` (deepest sources first out, shallowest targets first in), all inside the folder. */
async function applyMoves(dir: string, moves: PullOp[], result: PullResult): Promise<void> {
  if (moves.length === 0) return
  const depth = (p: string) => p.split('/').length
  const staged: Array<{op: PullOp; temp: string}> = []
  for (const op of [...moves].sort((a, b) => depth(b.from!) - depth(a.from!))) {
    const temp = `${stagingFolder}/${staged.length}`
    removeInside(dir, temp)
    renameInside(dir, op.from!, temp)
    if (op.type === 'article') {
      moveIfPresent(dir, assetsFolder(op.from!), temp + '.assets')
      // The `_assets` folder it leaves may hold nothing else now.
      removeIfEmpty(dir, path.posix.dirname(assetsFolder(op.from!)))
    }
    staged.push({op, temp})
  }
  for (const {op, temp} of staged.sort((a, b) => depth(a.op.path) - depth(b.op.path))) {
    renameInside(dir, temp, op.path)
    if (op.type === 'article') moveIfPresent(dir, temp + '.assets', assetsFolder(op.path))
    result.written.push(op.path)
  }
  removeInside(dir, stagingFolder)
}

function moveIfPresent(dir: string, from: string, to: string): void {
  // Only a folder that is there is moved: creating the target's parent first left empty `_assets` folders.
  if (existsInside(dir, from)) renameInside(dir, from, to)
}

/** Removes a document's files: an article with its `_assets` folder; a topic's own files, and its folder once empty. */
function deleteDocument(dir: string, op: PullOp): void {
  if (op.type === 'article') {
    removeInside(dir, op.path)
    removeInside(dir, assetsFolder(op.path))
    removeIfEmpty(dir, path.posix.join(path.posix.dirname(op.path), '_assets'))
    return
  }
  for (const file of [documentFile('topic', op.path), permissionsFile(op.path)]) removeInside(dir, file)
  removeInside(dir, assetsFolder(documentFile('topic', op.path)))
  removeIfEmpty(dir, path.posix.join(op.path, '_assets'))
  removeIfEmpty(dir, op.path)
}

function removeIfEmpty(dir: string, folder: string): void {
  try {
    removeEmptyFolderInside(dir, folder)
  } catch {
    // Not empty (or not a folder kbsync may touch): left as it is.
  }
}

/**
 * Where the preview's tree comes from: the folder scan that `plan` and
 * `push` use (`scanFolder`, through `createRescanner`), so titles, bodies and problems are exactly
 * theirs. The one place that knows about the scanner.
 */
import {
  scanFolder,
  type Diagnostic,
  type LocalNode,
  type LocalTopic,
  type ScanOptions,
  type ScanResult
} from '../local/index.js'
import {createRescanner} from '../local/rescan.js'
import {isSkipNotice} from '../local/walk.js'

/** The folder as the preview sees it. */
export interface PreviewModel {
  /** Absolute path of the folder (symbolic links resolved). */
  dir: string
  root: LocalTopic
  /** Every document by repo-relative path (articles by file, topics by folder, `''` the root). */
  byPath: Record<string, LocalNode>
  /** Documents with a front matter `kb_id`, by that id. */
  byKbId: Map<string, LocalNode>
  /** Problems by the file they are in. */
  byFile: Map<string, Diagnostic[]>
  /** Problems of no particular file. */
  general: Diagnostic[]
  /** The scan's word about entries it skipped (link loops, unreadable folders): on no page, so said in the terminal. */
  skipped: Diagnostic[]
  articleCount: number
}

/** What of a scan the preview takes from the config, so its pages and problems are plan's. */
export type PreviewScanOptions = Pick<ScanOptions, 'ignore' | 'links'>

/**
 * Where the models of one folder come from: the listing (no body read), the
 * listing with the bodies of one page, and the whole folder read again and
 * again at the cost of what changed (`createRescanner`).
 */
export interface ModelSource {
  /** The documents, their titles and places, with no body read: what the navigation needs, read cheaply. */
  listing(): Promise<PreviewModel>
  /**
   * A fresh listing with the bodies of `files` only read (converted, their links resolved): one page's
   * model while the whole folder is still being read. A fresh scan each time, so it sees every save.
   */
  focused(files: readonly string[]): Promise<PreviewModel>
  /** The folder's model now, every body read; `changed`: the paths changed since the last load, as the watcher names them. */
  load(changed?: readonly string[]): Promise<PreviewModel>
}

/** How `load` reads the bodies: `onBodyRead` is awaited after each (the preview yields to requests there). */
export interface LoadPace {
  onBodyRead?: (done: number, total: number) => void | Promise<void>
}

/**
 * The model source of `dir`: `load`'s first call scans everything, later ones reuse what unchanged files gave.
 * No parsed tree is kept on the model (`keptTrees: 0`): a page parses its body again when it is rendered, and its
 * HTML is what the preview keeps, for the pages shown last (`rendered.ts`).
 */
export function modelSource(dir: string, options: PreviewScanOptions = {}, pace: LoadPace = {}): ModelSource {
  const rescanner = createRescanner(dir, {...options, ...pace, keptTrees: 0})
  return {
    listing: async () => toModel(await scanFolder(dir, {...options, skipBodies: true})),
    focused: async (files) => toModel(await scanFolder(dir, {...options, bodiesOf: new Set(files), keptTrees: 0})),
    load: async (changed) => toModel(await rescanner.scan(changed))
  }
}

/** The model of a folder whose scan failed: a bare root, so the pages can still say why. */
export function emptyModel(dir: string): PreviewModel {
  const root: LocalTopic = {kind: 'topic', path: '', title: '', children: [], refs: {links: [], assets: []}}
  return toModel({dir, root, diagnostics: [], assets: {}, byPath: {'': root}, articleCount: 0})
}

/** Indexes a scan result for the pages. */
export function toModel(scan: ScanResult): PreviewModel {
  const byFile = new Map<string, Diagnostic[]>()
  const general: Diagnostic[] = []
  for (const diagnostic of scan.diagnostics) {
    if (diagnostic.file === undefined) {
      general.push(diagnostic)
      continue
    }
    const list = byFile.get(diagnostic.file) ?? []
    list.push(diagnostic)
    byFile.set(diagnostic.file, list)
  }
  const byKbId = new Map<string, LocalNode>()
  for (const node of Object.values(scan.byPath)) if (node.kbId) byKbId.set(node.kbId, node)
  const skipped = scan.diagnostics.filter(isSkipNotice)
  return {
    dir: scan.dir,
    root: scan.root,
    byPath: scan.byPath,
    byKbId,
    byFile,
    general,
    skipped,
    articleCount: scan.articleCount
  }
}

/** The files whose problems belong to a document's page. */
export function filesOf(node: LocalNode): string[] {
  if (node.kind === 'article') return [node.path]
  const permissions = node.path === '' ? '_permissions.yml' : `${node.path}/_permissions.yml`
  return node.file ? [node.file, permissions] : [permissions]
}

/** The problems shown on a document's page. */
export function diagnosticsOf(model: PreviewModel, node: LocalNode): Diagnostic[] {
  const own = filesOf(node).flatMap((file) => model.byFile.get(file) ?? [])
  return node.path === '' && node.kind === 'topic' ? [...model.general, ...own] : own
}

/** Whether `error` says the folder (or a file of it) may not be read: the preview then shows why on every page. */
export function isPermissionError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'EACCES' || code === 'EPERM'
}

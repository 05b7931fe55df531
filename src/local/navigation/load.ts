/**
 * Finds and reads the navigation files of a scanned folder: each folder's
 * mdBook `SUMMARY.md` (when it reads as a navigation), the MkDocs
 * `mkdocs.yml` in the folder or above it up to the repository root, and the
 * Docusaurus `_category_` files. The parsers are pure; this module does
 * the reading.
 */
import path from 'node:path'
import type {Diagnostic} from '../diagnostic.js'
import {keptFolders, markKeptFolders} from './chapter-folders.js'
import {documentFolders} from '../walk-order.js'
import {isInside, type WalkedDir} from '../walk.js'
import {isCategoryFile, parseCategory} from './docusaurus-category.js'
import {looksLikeSummary, parseSummary, summaryFileName} from './mdbook-summary.js'
import {mkdocsFileName, parseMkdocs} from './mkdocs.js'
import {ReadRefusedError, readTextInside} from '../../trust/index.js'
import type {Category, NavOutline} from './types.js'

/** The navigation of a folder, read. */
export interface LoadedNavigation {
  /** Outlines, outermost first (MkDocs, then each `SUMMARY.md` from the top down). */
  outlines: NavOutline[]
  /** Docusaurus category files by folder. */
  categories: Map<string, {file: string; category: Category}>
  /** Documents that are navigation files: never published. */
  navigationFiles: Set<string>
  /** The `mkdocs.yml` that applies to the folder (its absolute path and text), read for its other settings too. */
  mkdocs?: {path: string; text: string; docs: string}
}

/** What loading needs from the scan: the folder and its text files. */
export interface NavigationSource {
  /** Absolute real path of the scanned folder. */
  root: string
  /** The repository that holds the folder (`repositoryRoot` of `root`), if any. */
  repository: string | undefined
  walked: WalkedDir
  readText(relative: string): string
}

/** Reads the navigation files of the scanned folder; problems go to `diagnostics`. */
export async function loadNavigation(source: NavigationSource, diagnostics: Diagnostic[]): Promise<LoadedNavigation> {
  const loaded: LoadedNavigation = {outlines: [], categories: new Map(), navigationFiles: new Set()}
  const mkdocs = await findMkdocs(source.root, source.repository)
  if (mkdocs) {
    const file = path.relative(source.root, mkdocs.path).split(path.sep).join('/')
    const config = parseMkdocs(mkdocs.text, file)
    const base = path.resolve(path.dirname(mkdocs.path), config.docsDir)
    const relative = path.relative(source.root, base)
    // The folder is the docs folder, holds it, or lies inside it; a sibling folder is no concern of this nav (nor are its problems).
    const applies =
      relative === '' || !relative.startsWith('..') || relative.split(path.sep).every((part) => part === '..')
    if (applies) diagnostics.push(...config.problems)
    if (applies) loaded.mkdocs = {...mkdocs, docs: base}
    if (config.hasNav && applies) loaded.outlines.push({source: mkdocsFileName, file, base, entries: config.entries})
  }
  let kept: Set<string> | undefined
  for (const walk of navigationFolders(source.walked)) {
    const summary = walk.files.find((file) => path.posix.basename(file) === summaryFileName)
    if (summary !== undefined) {
      const text = source.readText(summary)
      if (looksLikeSummary(text)) {
        const parsed = parseSummary(text, summary)
        diagnostics.push(...parsed.problems)
        kept ??= keptFolders(source.walked)
        markKeptFolders(parsed.entries, walk.path, kept)
        loaded.navigationFiles.add(summary)
        loaded.outlines.push({
          source: summaryFileName,
          file: summary,
          base: path.join(source.root, walk.path),
          entries: parsed.entries
        })
      }
    }
    const category = walk.others.find((file) => isCategoryFile(path.posix.basename(file)))
    if (category !== undefined) {
      const parsed = parseCategory(source.readText(category), category)
      diagnostics.push(...parsed.problems)
      loaded.categories.set(walk.path, {file: category, category: parsed.category})
    }
  }
  return loaded
}

/**
 * The folders whose navigation files count: the scanned folder and, below
 * it, the folders holding documents (the layout's rule), in folder order.
 * `loadNavigation` reads in these folders and `navigationTextFiles` lists
 * what it reads, so the two cannot disagree.
 */
function navigationFolders(walk: WalkedDir): WalkedDir[] {
  return documentFolders(walk)
}

/** The text files of the walk that navigation needs read besides the documents (category files), in `loadNavigation`'s folders. */
export function navigationTextFiles(walk: WalkedDir): string[] {
  return navigationFolders(walk).flatMap((folder) =>
    folder.others.filter((file) => isCategoryFile(path.posix.basename(file)))
  )
}

/** The most bytes of an `mkdocs.yml` read. */
const maxNavigationBytes = 4 * 1048576

/** The nearest `mkdocs.yml` (or `.yaml`) at or above `root`, up to the repository root (only `root` itself outside a repository). */
async function findMkdocs(
  root: string,
  repository: string | undefined
): Promise<{path: string; text: string} | undefined> {
  const top = repository ?? root
  for (let dir = root; ; dir = path.dirname(dir)) {
    for (const name of [mkdocsFileName, 'mkdocs.yaml']) {
      const candidate = path.join(dir, name)
      try {
        // By the trust rule of reads: a FIFO would block the scan, a link could lead out of the repository.
        return {path: candidate, text: await readTextInside(candidate, {boundary: top, maxBytes: maxNavigationBytes})}
      } catch (error) {
        // Not here.
        if (!(error instanceof ReadRefusedError) || error.reason !== 'missing') throw error
      }
    }
    if (dir === top || path.dirname(dir) === dir || !isInside(top, dir)) return undefined
  }
}

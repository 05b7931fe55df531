/**
 * The folders a pull keeps for topics left without documents (pure). A
 * topic whose last article was deleted or moved away on the web is still a
 * topic on the platform, but nothing in its folder would say so: git keeps
 * no empty folder, so the next push would read no topic there and orphan it
 * (or publish the page beside the folder, `x.md` next to `x/`, as an
 * article). The pull writes an empty `.gitkeep` in the folder, and the scan
 * reads a folder kept so as a topic (`src/local/kept-folder.ts`), titled by
 * its name (or its `_category_` label). A topic without a page whose title is
 * not its folder's name (a sidebar's label, a MkDocs section's title) gets an
 * `_index.md` holding only that title beside it, which every site generator
 * but Hugo and MkDocs leaves out of the site (it starts with `_`); the
 * `.gitkeep` says the title is the pull's marker, not a page the author left
 * out of a navigation (`navigation/outline-unlisted.ts`). One rule for
 * every layout:
 *
 * - a folder topic whose body is not inside its folder (no index page, or a
 *   page beside the folder: Jekyll, MkDocs, Docusaurus) keeps its folder;
 * - an mdBook chapter (a topic whose body is `printing.md`, its articles in
 *   `printing/`) keeps the folder named like its page (see
 *   `chapter-folders.ts` of the scan);
 * - a topic whose index page is inside its folder (`_index.md`, `index.md`,
 *   `README.md`, `x/x.md`) needs nothing: that page is a document there.
 */
import path from 'node:path'
import {chapterFolder, keepFileName, summaryFileName, type LocalNode, type ScanResult} from '../../local/index.js'
import {isSectionKey} from '../shared/document-homes.js'
import {documentText} from '../shared/document-files.js'
import type {RemoteSnapshot} from '../shared/remote.js'
import type {PullPlan} from './plan.js'

export {keepFileName}

/** What finding the kept folders reads. */
export interface KeptFoldersInput {
  scan: ScanResult
  remote: RemoteSnapshot
  /** Current path by id (the layout's). */
  current: ReadonlyMap<string, string>
}

/** A file that keeps a topic's folder: relative to the pulled folder, and its text. */
export interface KeptFile {
  file: string
  text: string
}

/** The files (a `.gitkeep`, or an `_index.md` with the title) that keep the folders of the topics `plan` leaves without documents. */
export function keptFolderFiles(plan: PullPlan, input: KeptFoldersInput): KeptFile[] {
  const deleted = new Set(plan.ops.filter((op) => op.op === 'delete').map((op) => op.id))
  const files: KeptFile[] = []
  for (const [id, item] of Object.entries(input.remote.items)) {
    if (item.type !== 'topic' || item.children.length > 0 || deleted.has(id)) continue
    const at = input.current.get(id)
    const node = at === undefined ? undefined : input.scan.byPath[at]
    const folder = keptFolder(plan.paths[id], plan.files[id], node)
    if (folder === undefined) continue
    // A folder titles a topic by its name (a category file by its label, which this title then repeats).
    const named = node?.kind === 'topic' && node.file === undefined && path.posix.basename(folder) !== item.title
    // The `.gitkeep` beside a title's `_index.md` marks it as the pull's (an outline does not call it a page left out).
    files.push({file: `${folder}/${keepFileName}`, text: ''})
    if (named) files.push({file: `${folder}/_index.md`, text: documentText({title: item.title}, '')})
  }
  return files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
}

/**
 * The folder to keep for a topic left without documents, whose path and file
 * after the pull are `key` and `file`; `node` is its scanned self (undefined
 * for a topic new to the folder, which the pull writes as a folder with `_index.md`).
 */
function keptFolder(
  key: string | undefined,
  file: string | undefined,
  node: LocalNode | undefined
): string | undefined {
  if (key === undefined || key === '' || isSectionKey(key) || node === undefined) return undefined
  if (isPage(key)) {
    // A chapter of a SUMMARY.md: keyed by its page (a folder topic or a part has a folder or no file).
    const chapter = node.kind === 'topic' && node.navigation !== undefined && isSummary(node.navigation.file)
    return chapter && file !== undefined ? chapterFolder('', file) : undefined
  }
  // An index page inside the folder is a document there: it keeps the folder a topic by itself.
  const indexInside = node.file !== undefined && file !== undefined && path.posix.dirname(file) === key
  return indexInside ? undefined : key
}

function isSummary(file: string): boolean {
  return file === summaryFileName || file.endsWith(`/${summaryFileName}`)
}

function isPage(file: string): boolean {
  return /\.mdx?$/i.test(file)
}

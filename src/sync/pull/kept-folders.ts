/**
 * The folders a pull keeps for mdBook chapters left without sub-chapters
 * (pure). A chapter with sub-chapters is a topic whose body is its page
 * (`printing.md`) and whose articles sit in the folder named like it
 * (`printing/`). When its last article leaves on the web the platform still
 * holds a topic, but `SUMMARY.md` lists a chapter with no children, which
 * reads as a page: the folder beside the page is what keeps it a topic (see
 * `chapter-folders.ts` of the scan). Git keeps no empty folder, so the pull
 * writes an empty `.gitkeep` in it, the usual way to keep one.
 */
import {chapterFolder, summaryFileName, type ScanResult} from '../../local/index.js'
import type {RemoteSnapshot} from '../shared/remote.js'
import type {PullPlan} from './plan.js'

/** The file that keeps an emptied chapter's folder in git. */
export const keepFileName = '.gitkeep'

/** What finding the kept folders reads. */
export interface KeptFoldersInput {
  scan: ScanResult
  remote: RemoteSnapshot
  /** Current path by id (the layout's). */
  current: ReadonlyMap<string, string>
}

/** The `.gitkeep` files (relative to the folder) of the chapters `plan` leaves as topics without articles. */
export function keptFolderFiles(plan: PullPlan, input: KeptFoldersInput): string[] {
  const deleted = new Set(plan.ops.filter((op) => op.op === 'delete').map((op) => op.id))
  const files: string[] = []
  for (const [id, item] of Object.entries(input.remote.items)) {
    if (item.type !== 'topic' || item.children.length > 0 || deleted.has(id)) continue
    const at = input.current.get(id)
    const node = at === undefined ? undefined : input.scan.byPath[at]
    // A chapter of a SUMMARY.md: keyed by its page (a folder topic or a part has a folder or no file).
    const chapter =
      node?.kind === 'topic' && node.navigation !== undefined && isSummary(node.navigation.file) && isPage(node.path)
    const page = plan.files[id]
    const folder = chapter && page !== undefined ? chapterFolder('', page) : undefined
    if (folder !== undefined) files.push(`${folder}/${keepFileName}`)
  }
  return files.sort()
}

function isSummary(file: string): boolean {
  return file === summaryFileName || file.endsWith(`/${summaryFileName}`)
}

function isPage(file: string): boolean {
  return /\.mdx?$/i.test(file)
}

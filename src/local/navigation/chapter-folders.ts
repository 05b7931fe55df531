/**
 * An mdBook chapter with sub-chapters keeps them in a folder named like its
 * page (`printing.md` beside `printing/`); on the platform it is a topic.
 * When its last sub-chapter leaves on the web, `SUMMARY.md` lists the
 * chapter with no children, which mdBook shows as a plain page, while the
 * platform still holds a topic without articles. The folder beside the page
 * tells them apart: pull keeps it with a `.gitkeep`, and a chapter without
 * sub-chapters whose folder is kept so stays a topic. Without that the next
 * push would create the page as a new article and leave the topic an orphan,
 * and no round trip would settle.
 *
 * A kept folder is the one rule of every layout (`isKeptFolder`,
 * `../kept-folder.ts`): the `.gitkeep` and nothing else but its permission
 * (or category) file. A bare empty folder is no sign: git keeps none, so a
 * clone of the same commit would read the chapter as a page, and to mdBook,
 * which reads only `SUMMARY.md`, an empty folder means nothing either.
 */
import path from 'node:path'
import {isKeptFolder} from '../kept-folder.js'
import {allFolders} from '../walk-order.js'
import type {WalkedDir} from '../walk.js'
import type {NavEntry} from './types.js'

/** The folders of a walk kept by a `.gitkeep` (`isKeptFolder`), by path. A folder of images beside a page is no sign of a topic. */
export function keptFolders(walked: WalkedDir): Set<string> {
  return new Set(
    allFolders(walked)
      .filter(isKeptFolder)
      .map((folder) => folder.path)
  )
}

/** The folder named like a chapter's page beside it (`a/b` for `a/b.md`), relative to the walk's root; undefined for no page. */
export function chapterFolder(base: string, file: string): string | undefined {
  if (!/\.mdx?$/i.test(file)) return undefined
  const page = path.posix.normalize(path.posix.join(base, file))
  if (page.startsWith('../') || path.posix.isAbsolute(page)) return undefined
  return page.replace(/\.mdx?$/i, '')
}

/**
 * Marks `keptFolder` on the chapters of `entries` (an outline whose base is
 * the folder `base` of the walk) that have no sub-chapters and whose folder
 * is among `kept`. Iterative: the outline is held to its depth limit, but
 * the walk over it need not trust that.
 */
export function markKeptFolders(entries: NavEntry[], base: string, kept: ReadonlySet<string>): void {
  if (kept.size === 0) return
  const stack = [...entries]
  while (stack.length > 0) {
    const entry = stack.pop()!
    stack.push(...entry.children)
    if (entry.children.length > 0 || entry.file === undefined) continue
    const folder = chapterFolder(base, entry.file)
    if (folder !== undefined && kept.has(folder)) entry.keptFolder = true
  }
}

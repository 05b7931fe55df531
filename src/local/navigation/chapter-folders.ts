/**
 * An mdBook chapter with sub-chapters keeps them in a folder named like its
 * page (`printing.md` beside `printing/`); on the platform it is a topic.
 * When its last sub-chapter leaves on the web, `SUMMARY.md` lists the
 * chapter with no children, which mdBook shows as a plain page, while the
 * platform still holds a topic without articles. The folder beside the page
 * tells them apart: pull keeps it (with a `.gitkeep`, so git keeps it too),
 * and a chapter without sub-chapters whose folder is there, empty, stays
 * a topic. Without that the next push would create the page
 * as a new article and leave the topic an orphan, and no round trip would
 * settle.
 */
import path from 'node:path'
import {allFolders} from '../walk-order.js'
import type {WalkedDir} from '../walk.js'
import type {NavEntry} from './types.js'

/**
 * The folders of a walk that hold nothing it sees (a `.gitkeep`, being a
 * dot-file, is not seen), by path. A folder of images beside a page is no
 * sign of a topic: only an empty one is.
 */
export function emptyFolders(walked: WalkedDir): Set<string> {
  return new Set(
    allFolders(walked)
      .filter((folder) => folder.files.length === 0 && folder.others.length === 0 && folder.dirs.length === 0)
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
 * is among `empty`. Iterative: the outline is held to its depth limit, but
 * the walk over it need not trust that.
 */
export function markKeptFolders(entries: NavEntry[], base: string, empty: ReadonlySet<string>): void {
  if (empty.size === 0) return
  const stack = [...entries]
  while (stack.length > 0) {
    const entry = stack.pop()!
    stack.push(...entry.children)
    if (entry.children.length > 0 || entry.file === undefined) continue
    const folder = chapterFolder(base, entry.file)
    if (folder !== undefined && empty.has(folder)) entry.keptFolder = true
  }
}

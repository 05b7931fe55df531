/**
 * A topic whose last document left (deleted or moved away on the web) is
 * still a topic on the platform, but its folder would hold no document, and
 * git keeps no empty folder: the next push would read no topic there and
 * orphan it (or, for a topic whose page sits beside its folder, `x.md` next
 * to `x/`, publish the page as an article). So a pull keeps such a folder
 * with an empty `.gitkeep`, the usual way to keep a folder in git, and the
 * scan reads a folder kept so as the topic it is: one rule for every layout
 * of folders (plain, bundles, Docusaurus categories, Starlight, a page beside
 * its folder), and the same for an mdBook chapter's folder beside its page
 * (`navigation/chapter-folders.ts`, where `SUMMARY.md` lists the chapter).
 *
 * A `.gitkeep` among images (`img/.gitkeep`, an assets folder someone kept)
 * is no sign of a topic: only a folder that holds nothing else but its own
 * navigation and permission files is one.
 */
import path from 'node:path'
import {isCategoryFile} from './navigation/docusaurus-category.js'
import type {WalkedDir} from './walk.js'

export {keepFileName} from './walk.js'

/** A topic folder's permission file (as `scan.ts` reads it). */
const permissionsName = '_permissions.yml'

/** Whether `walk` is a topic's folder kept by a `.gitkeep`: the keep file and nothing else but its category and permission files. */
export function isKeptFolder(walk: WalkedDir): boolean {
  if (walk.kept !== true || walk.files.length > 0 || walk.dirs.length > 0) return false
  return walk.others.every((file) => {
    const name = path.posix.basename(file)
    return name === permissionsName || isCategoryFile(name)
  })
}

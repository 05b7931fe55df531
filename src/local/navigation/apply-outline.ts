/**
 * Applies an outline (mdBook `SUMMARY.md`, MkDocs `nav`) to the folder
 * layout: below the outline's base folder, the outline decides the
 * structure, the titles and the order.
 *
 * - A page is an article; a page with sub-pages is a topic whose body is
 *   that page, keyed by the page's file (a file path is never a folder
 *   path, so the key cannot clash).
 * - A section (a label over pages, an mdBook part) is a topic without a
 *   file: keyed by the folder all its pages share when that folder is below
 *   the base and no other section took it (it keeps the folder's
 *   permissions and, unless listed, the folder's index page as body),
 *   else by a `.nav/` key (the walk never yields a dot-folder).
 * - Documents the outline does not list stay where their folders put them,
 *   after the listed ones, with one warning that counts them.
 */
import type {Diagnostic} from '../diagnostic.js'
import type {LayoutTopic} from '../layout.js'
import {convertEntries} from './outline-entries.js'
import {startRun} from './outline-run.js'
import {placeUnlisted, warnUnlisted} from './outline-unlisted.js'
import type {NavOutline} from './types.js'

/** Reshapes the part of `layout` (the root topic of a scan of the folder `root`, absolute) below the outline's base. */
export function applyOutline(layout: LayoutTopic, outline: NavOutline, root: string, diagnostics: Diagnostic[]): void {
  const run = startRun(layout, outline, root, diagnostics)
  if (!run) return
  const children = convertEntries(run)
  const unlisted = placeUnlisted(run, children)
  run.home.children = children
  run.home.ordered = true
  warnUnlisted(run, unlisted)
}

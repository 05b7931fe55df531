/**
 * What navigation files say, as plain data: the parsers of mdBook's
 * `SUMMARY.md`, MkDocs' `nav` and Docusaurus' `_category_` files produce it,
 * and the layout applies it to the scanned tree.
 */
import type {Diagnostic} from '../diagnostic.js'

/** One entry of a navigation outline: a page, a page with sub-pages, or a section label over pages. */
export interface NavEntry {
  /** The title the navigation gives (absent for MkDocs' bare `- file.md`). */
  title?: string
  /** The document, relative to the outline's base folder, with `/`; absent for a section label or an mdBook draft chapter. */
  file?: string
  /** 1-based line of the entry in the navigation file. */
  line: number
  children: NavEntry[]
  /**
   * A chapter without sub-chapters whose folder is there beside its page
   * (`x/` next to `x.md`), empty: a topic whose articles all
   * went, kept a topic (see `chapter-folders.ts`).
   */
  keptFolder?: boolean
}

/** A parsed outline and the problems found in it (each with file and line). */
export interface ParsedOutline {
  entries: NavEntry[]
  problems: Diagnostic[]
}

/** An outline that gives a folder its structure (mdBook `SUMMARY.md`, MkDocs `nav`). */
export interface NavOutline {
  /** The tool, for messages: `SUMMARY.md`, `mkdocs.yml`. */
  source: string
  /** Path of the navigation file, relative to the scanned folder (may start with `../`), for messages. */
  file: string
  /** The folder entry paths are relative to, relative to the scanned folder (`''` the folder itself; may start with `../`). */
  base: string
  entries: NavEntry[]
}

/** What a Docusaurus `_category_.json` / `_category_.yml` says about its folder. */
export interface Category {
  /** The folder's title in the navigation. */
  label?: string
  /** The folder's place among its siblings (lower first). */
  position?: number
  /** `link: {type: doc, id}`: the document that is the folder's own page. */
  docId?: string
}

/** Where a node's navigation entry is, for messages. */
export interface NavOrigin {
  file: string
  line: number
}

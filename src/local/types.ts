/**
 * The desired tree a folder describes: plain data, produced by `scanFolder`
 * and read by the sync engine.
 */
import type {Root} from 'mdast'
import type {DiagramKind} from '../diagrams/kinds.js'
import type {Diagnostic} from './diagnostic.js'
import type {ExternalUrl} from './external-urls.js'
import type {NavOrigin} from './navigation/types.js'
import type {Resolved} from './references.js'
import type {TitleSource} from './titles.js'

/** Permissions a folder or a file asks for (user ids). */
export interface LocalPermissions {
  /** Topics only: inherit the parent topic's rights. */
  inherit?: boolean
  readers: number[]
  editors: number[]
}

/** A reference from a body to a local file (image or attachment). */
export interface AssetRef {
  kind: 'image' | 'attachment'
  /** Repo-relative path of the file, with `/`. */
  path: string
  /** sha256 of the file's bytes. */
  sha256: string
}

/** A reference from a body to another document of the folder. */
export interface LinkRef {
  /** Key of the target: an article's `.md` file or a topic's key (its folder; `''` is the root). */
  target: string
  kind: 'article' | 'topic'
}

/** What a body refers to, resolved and validated. */
export interface BodyRefs {
  links: LinkRef[]
  assets: AssetRef[]
}

/** Fields shared by topics and articles. */
interface LocalItemBase {
  /**
   * The item's key, repo-relative with `/`: the `.md`/`.mdx` file of an
   * article; the folder of a topic (`''` for the root folder), or the file
   * of a chapter that a navigation makes a topic (never a folder's path),
   * or `<folder>/.nav/<titles>` for a navigation's section (the walk never
   * yields a dot-folder, so no folder has that path).
   */
  path: string
  /** The key of the parent topic (`''` the root); absent on the root, and then the folder above `path`. */
  parent?: string
  title: string
  /** Where the title came from (front matter, navigation, heading, name). */
  titleFrom?: TitleSource
  /** 1-based line of the heading taken out of the body as the title, when one was (a topic's in its file). */
  titleLine?: number
  /** The navigation entry that placed the item, for messages. */
  navigation?: NavOrigin
  /** Front matter `kb_id`. */
  kbId?: string
  /**
   * Front matter `kb_id` when it is an id of another knowledge base the sync
   * state knows (`sync/shared/foreign-ids.ts`): then `kbId` is unset, and the
   * file is matched here by its path, as a file without one.
   */
  foreignKbId?: string
  permissions?: LocalPermissions
  /** The body text (front matter and title heading blanked, so lines match the file); absent when there is no body. */
  body?: string
  /** For each line of `body` (0-based), the file's 1-based line it comes from, when an include or readfile moved lines. */
  bodyLineOf?: number[]
  /** sha256 of the file path and the body text: the body cache's key, and all that rendering reads of the file. */
  bodyKey?: string
  /**
   * The `bodyKey` of a body that is its file's own text (no include,
   * `readfile` or site value in it): such a body can be let go of and read
   * from the file again (`body-release.ts`). A body the scan replaced since
   * (a blank page's text) has another key, so it is held.
   */
  fileBodyKey?: string
  /** What each local reference of the body resolved to, in document order (null: left as written). */
  resolutions?: Array<Resolved | null>
  /**
   * The body as a dialect tree (after `gfmToKbTree`), links and assets still
   * local, marked with their resolutions. The scan keeps the trees it parsed;
   * a body read from the cache is parsed on first use (`bodyTree`).
   */
  tree?: Root
  /** sha256 of the body source after front matter and title heading are taken off (CRLF normalised). */
  sourceHash?: string
  refs: BodyRefs
  /** The external URLs of the body (lines as in the file), for the link checker; absent when there is no body. */
  externalUrls?: ExternalUrl[]
  /** Path of the file that holds the front matter (`x.md` or `dir/_index.md`), when there is one. */
  file?: string
}

/** A folder (or a chapter or section of a navigation): a topic. */
export interface LocalTopic extends LocalItemBase {
  kind: 'topic'
  children: LocalNode[]
  /** Whether a navigation file gave the order of `children`: new ones are then created in that order. */
  ordered?: boolean
}

/** A `.md` file: an article. */
export interface LocalArticle extends LocalItemBase {
  kind: 'article'
  /**
   * The raw file text, from the scan until the plan has checked it (foreign
   * URLs): a push lets go of it then, and whatever needs the text later reads
   * the file again, checked against `sourceHash`.
   */
  source?: string
  /** sha256 of the raw file bytes (CRLF normalised): detects local change and renamed files. */
  sourceHash: string
  /** Whether the file has a front matter block (for `--write-ids`). */
  hasFrontMatter: boolean
}

/** A topic or an article. */
export type LocalNode = LocalTopic | LocalArticle

/** A local file a body refers to. */
export interface LocalAsset {
  /** Repo-relative path. */
  path: string
  /** Absolute path on disk. */
  absolutePath: string
  sha256: string
  size: number
  /** The other paths of the folder holding the same bytes, as the bodies name them: the one upload serves them all. */
  alsoAt?: string[]
  /**
   * A diagram or formula rather than a file: `sha256` is the key of its
   * source (`diagramKey`), `absolutePath` where its SVG is rendered to
   * before the upload (`size` 0 until then). Where it was first seen, for
   * messages; its kind (absent: Mermaid).
   */
  diagram?: {source: string; file: string; line?: number; kind?: DiagramKind}
}

/** What `scanFolder` finds. */
export interface ScanResult {
  /** Absolute path of the scanned folder. */
  dir: string
  root: LocalTopic
  diagnostics: Diagnostic[]
  /** Every referenced local file, by sha256. */
  assets: Record<string, LocalAsset>
  /** Every document by path (articles by file, topics by folder). */
  byPath: Record<string, LocalNode>
  /** Number of articles found. */
  articleCount: number
  /** Absolute folders MkDocs snippets (`--8<--`) resolve against, in order (a pull that moves a file renames them). */
  snippetBases?: readonly string[]
}

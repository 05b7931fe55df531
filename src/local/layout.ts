/**
 * The shape of the desired tree before any file is converted: which
 * document is an article, which is a topic's own body, and in what order
 * they come. Built from the folders (this module: folders are topics, and a
 * folder's index page is its body), then reshaped by the navigation files
 * (`navigation/`). Plain data; the scan turns it into nodes.
 *
 * A folder's body, first found wins: `_index.md`, `index.md`/`.mdx`,
 * `README.md`/`.mdx` (any case), a file named like the folder inside it
 * (`x/x.md`), a file named like it beside it (`x.md` next to `x/`). A
 * later candidate stays an article, with a warning. The root folder's
 * body is only `_index.md`: its index page is an article (the root itself
 * is never written).
 */
import path from 'node:path'
import type {Diagnostic} from './diagnostic.js'
import {documentStem} from './file-names.js'
import type {NavOrigin} from './navigation/types.js'
import type {WalkedDir} from './walk.js'
import {foldersWithDocuments} from './walk-order.js'

/** A document that is an article. */
export interface LayoutArticle {
  kind: 'article'
  file: string
  /** The title its navigation entry gives. */
  navTitle?: string
  /** Its place among its siblings, from the navigation (lower first). */
  position?: number
  nav?: NavOrigin
}

/** A topic: a folder, a chapter with sections, or a section of a navigation. */
export interface LayoutTopic {
  kind: 'topic'
  /** The topic's key (its `path`): the folder, the chapter's file, or a `.nav/` key no folder can have. */
  key: string
  /** The folder it stands for (its `_permissions.yml`), when it stands for one. */
  folder?: string
  /** The document that is its body. */
  file?: string
  navTitle?: string
  /** The title a folder's own navigation file gives it (Docusaurus `label`): it comes before even the body's front matter. */
  label?: string
  position?: number
  nav?: NavOrigin
  /** Whether a navigation gave the order of its children (then they are created in that order). */
  ordered?: boolean
  /**
   * A folder a pull kept for its topic with a `.gitkeep` (`kept-folder.ts`): an outline keeps it a topic even
   * when it lists every document of it elsewhere (a MkDocs entry `guide/` naming its `README.md` as a page).
   */
  kept?: boolean
  children: LayoutNode[]
}

/** An article or a topic of the layout. */
export type LayoutNode = LayoutArticle | LayoutTopic

/** The kbsync name of a folder's body file. */
export const indexName = '_index.md'

/**
 * The folder layout of `walked`: a topic per folder holding documents, an
 * article per document, each folder's body chosen by the precedence above.
 * Competing candidates are warnings in `diagnostics`.
 */
export function folderLayout(walked: WalkedDir, diagnostics: Diagnostic[]): LayoutTopic {
  const withDocuments = foldersWithDocuments(walked)
  // The topic of a folder, its body chosen and its competitors reported; its subfolders are left to the caller.
  const start = (walk: WalkedDir, beside: string | undefined): LayoutTopic => {
    const topic: LayoutTopic = {kind: 'topic', key: walk.path, folder: walk.path, children: []}
    if (walk.kept === true) topic.kept = true
    const candidates =
      walk.path === ''
        ? walk.files.filter((file) => path.posix.basename(file) === indexName)
        : bodyCandidates(walk, beside)
    const [body, ...others] = candidates
    if (body !== undefined) topic.file = body
    for (const other of others) diagnostics.push(competing(other, body!, walk.path))
    return topic
  }
  let root: LayoutTopic | undefined
  // Depth first with an explicit stack (a folder chain may be as deep as the OS allows), in the order a recursion took.
  const stack: Array<{walk: WalkedDir; within?: LayoutNode[]; beside?: string}> = [{walk: walked}]
  while (stack.length > 0) {
    const {walk, within, beside} = stack.pop()!
    const topic = start(walk, beside)
    root ??= topic
    // A file beside a folder that found another body stays an article of the parent.
    if (within !== undefined && beside !== undefined && topic.file !== beside)
      within.push({kind: 'article', file: beside})
    within?.push(topic)
    const dirs = walk.dirs.filter((dir) => withDocuments.has(dir))
    const claimed = new Map<string, string>()
    const besideOf = dirs.length > 0 ? filesByFolderName(walk.files, topic.file) : undefined
    for (const dir of dirs) {
      const file = besideOf?.get(folderNameKey(path.posix.basename(dir.path)))
      if (file !== undefined) claimed.set(dir.path, file)
    }
    const taken = new Set([topic.file, ...claimed.values()])
    for (const file of walk.files) if (!taken.has(file)) topic.children.push({kind: 'article', file})
    for (let i = dirs.length - 1; i >= 0; i--) {
      const dir = dirs[i]!
      const besideFile = claimed.get(dir.path)
      stack.push({walk: dir, within: topic.children, ...(besideFile !== undefined ? {beside: besideFile} : {})})
    }
  }
  return root!
}

/** The body candidates of a subfolder, in precedence order. */
function bodyCandidates(walk: WalkedDir, beside: string | undefined): string[] {
  const name = path.posix.basename(walk.path).normalize('NFC')
  const base = (file: string) => path.posix.basename(file)
  const ranks: Array<(file: string) => boolean> = [
    (file) => base(file) === indexName,
    (file) => /^index\.mdx?$/.test(base(file)),
    (file) => /^readme\.mdx?$/i.test(base(file)),
    (file) => sameName(documentStem(file), name)
  ]
  const found: string[] = []
  for (const rank of ranks) for (const file of walk.files) if (rank(file) && !found.includes(file)) found.push(file)
  if (beside !== undefined) found.push(beside)
  return found
}

/** Whether a file's stem names a folder: in any case (`Guides.md` beside `guides/`), Unicode NFC. */
function sameName(stem: string, folder: string): boolean {
  return stem.toLowerCase() === folderNameKey(folder)
}

/** The key a folder's name and the stem of a file naming it share (`sameName`). */
function folderNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase()
}

/**
 * The files `files` (but `body`) by the folder name each names (`sameName`), the first in order for each: a
 * subfolder finds the file beside it in one look, where scanning the files per subfolder cost a folder of
 * thousands of both (Hugo's bundles beside pages) their product.
 */
function filesByFolderName(files: readonly string[], body: string | undefined): Map<string, string> {
  const byName = new Map<string, string>()
  for (const file of files) {
    const key = documentStem(file).toLowerCase()
    if (file !== body && !byName.has(key)) byName.set(key, file)
  }
  return byName
}

function competing(other: string, body: string, folder: string): Diagnostic {
  return {
    severity: 'warning',
    file: other,
    line: 1,
    message: `\`${other}\` could be the body of topic \`${folder}\` too, but \`${body}\` comes first; \`${other}\` stays an article`,
    hint: 'Order: _index.md, index.md, README.md, a file named like the folder inside it, then one beside it. Rename one of them to settle it',
    rule: 'index-competing'
  }
}

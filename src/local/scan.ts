/**
 * Scans a folder into the desired tree: the layout (topics from folders and
 * their index pages, reshaped by navigation files), articles from `.md` and
 * `.mdx` files, titles, ids, permissions, bodies (through the GFM to
 * dialect conversion) and the local files they use; then validates it all.
 * Nothing here talks to the network.
 */
import {realpath} from 'node:fs/promises'
import path from 'node:path'
import type {Diagnostic} from './diagnostic.js'
import {settleBlankPages, type BlankPage} from './blank-pages.js'
import {readDocumentHead, type DocumentHead} from './body.js'
import {BodyCache} from './body-cache.js'
import type {FrontMatterCache} from './front-matter-cache.js'
import {isPartialName} from './file-names.js'
import {folderLayout} from './layout.js'
import {allFolders, documentFolders, withoutFiles} from './walk-order.js'
import {emptyLinkTargets} from './link-targets.js'
import {applyCategories, type SidebarFacts} from './navigation/apply-categories.js'
import {arrangeLayout, type LocaleChoice} from './navigation/locales.js'
import {loadNavigation, navigationTextFiles, type LoadedNavigation} from './navigation/load.js'
import {loadSite, type SiteNavigation} from './navigation/site-load.js'
import {parseMkdocsSite} from './mkdocs-site.js'
import {unpublishedDocuments} from './publish-rules.js'
import {readBodies, type BodyContext, type PendingBody} from './scan-bodies.js'
import type {KeepRender} from './scan-keep-render.js'
import {conflictMarkerDiagnostics} from './conflict-markers.js'
import {buildNodes} from './scan-nodes.js'
import type {DocumentIndex, LinkOptions} from './references.js'
import {repositoryRoot} from './repository.js'
import type {ScanReuse} from './scan-reuse.js'
import type {LocalNode, ScanResult} from './types.js'
import {walkFolder, loadIgnore, type WalkedDir} from './walk.js'
import {disambiguateTitles, validateTree} from './validate.js'
import {decodeText, readFiles} from './text.js'

export {maxArticleBytes} from './article-limit.js'

/** Options of `scanFolder`. */
export interface ScanOptions {
  /** Skip body conversion (faster, for listing only). */
  skipBodies?: boolean
  /** Extra gitignore-style patterns excluded like `.kbsyncignore` ones (the config's `ignore`). */
  ignore?: readonly string[]
  /** Reads unchanged bodies from this cache instead of parsing them, and records the others in it (then saves it). */
  cache?: BodyCache
  /** Reads unchanged front matter blocks from this cache instead of parsing them, and records the others (then saves it). */
  frontMatter?: FrontMatterCache
  /** Parsed trees to keep for rendering, at most (default `keptTreesMax`); the others are parsed again when rendered. */
  keptTrees?: number
  /** How links are resolved beyond the folder's documents: broken links, repository links, the site root. */
  links?: LinkOptions
  /** Earlier results of the per-file steps to reuse (`rescan.ts`); `cache` is then not read. */
  reuse?: ScanReuse
  /** What to do with a docs site's locales other than the default language (default: a root topic each). */
  locales?: LocaleChoice
  /** Reads only the bodies of these document files (pull's round trip renders one document); default every body. */
  bodiesOf?: ReadonlySet<string>
  /**
   * Called after each body is read, with how many of how many; the scan awaits what it returns, so a caller
   * can yield to other work meanwhile (the preview answers pages while it reads the rest) or throw to stop.
   */
  onBodyRead?: (done: number, total: number) => void | Promise<void>
  /** Offered each tree the scan parses (`BodyContext.keepRender`): a push keeps its render instead of the tree. */
  keepRender?: KeepRender
  /** Told how many bodies the scan reads, before it reads them. */
  onBodies?: (count: number) => void
}

const permissionsName = '_permissions.yml'

/**
 * Reads the folder at `dir` into the desired tree, with every problem found
 * (errors and warnings, each with file and line where it has one).
 */
export async function scanFolder(dir: string, options: ScanOptions = {}): Promise<ScanResult> {
  const root = await realpath(path.resolve(dir))
  // Found once: navigation (mkdocs.yml above the folder), includes and links all read it.
  const repository = await repositoryRoot(root)
  const diagnostics: Diagnostic[] = []
  const rules = await loadIgnore(root, options.ignore)
  const walked = await (options.reuse?.walk ?? walkFolder)(root, rules, diagnostics)
  const byPath: Record<string, LocalNode> = {}
  const documents: DocumentIndex = {...emptyLinkTargets(new Set(), new Set()), files: new Set(otherFilesOf(walked))}
  const bodies: PendingBody[] = []

  const contents = await (options.reuse?.readFiles ?? readFiles)(root, textFilesOf(walked))
  const readText = textReader(contents, diagnostics)
  reportPartials(walked, diagnostics)
  const navigation = await loadNavigation({root, repository, walked, readText}, diagnostics)
  const site = await loadSite(root, repository, diagnostics)
  const navigatedWalk = withoutFiles(walked, navigation.navigationFiles)
  const headOf = headReader(readText, options, diagnostics)
  // Front matter problems come in folder order, whatever order the layout reads them in.
  for (const file of documentFilesOf(navigatedWalk)) headOf(file)
  // Drafts and headless bundles are no pages of the site: left out before the layout sees them.
  const frontMatterOf = (file: string) => headOf(file).head.frontMatter
  const documentWalk = withoutFiles(
    navigatedWalk,
    unpublishedDocuments(documentFilesOf(navigatedWalk), frontMatterOf, diagnostics)
  )

  const layout = folderLayout(documentWalk, diagnostics)
  const sidebarOf = (file: string) => sidebarEntry(headOf(file).head)
  const arrange = {root, outlines: navigation.outlines, choice: options.locales ?? {mode: 'topics' as const}}
  const slugOf = (file: string) => headOf(file).head.frontMatter.slug
  const facts = (file: string) => ({...sidebarOf(file), ...(slugOf(file) !== undefined ? {slug: slugOf(file)} : {})})
  arrangeLayout(layout, {...arrange, ...(site ? {site} : {}), facts}, diagnostics)
  applyCategories(layout, {categories: navigation.categories, sidebarOf}, diagnostics)

  const permissionsFiles = permissionsFilesByFolder(walked)
  const blankPages: BlankPage[] = []
  const rootTopic = buildNodes(layout, {
    headOf,
    readText,
    permissionsFileOf: (folder) => permissionsFiles.get(folder),
    documents,
    byPath,
    bodies,
    blankPages,
    diagnostics
  })
  disambiguateTitles(rootTopic, diagnostics)
  // A push must not publish a merge left half done (the markers are the author's own lines, before any expansion).
  if (!options.skipBodies) for (const {body, file} of bodies) diagnostics.push(...conflictMarkerDiagnostics(body, file))
  const toRead = options.skipBodies
    ? []
    : options.bodiesOf
      ? bodies.filter(({file}) => options.bodiesOf!.has(file))
      : bodies
  options.onBodies?.(toRead.length)
  const reading = siteReading(navigation.mkdocs)
  const read = options.skipBodies
    ? {assets: {}, blank: []}
    : await readBodies(
        toRead,
        {
          ...bodyContext(root, repository, documents, {...options, links: linksOf(options, site)}),
          ...reading
        },
        diagnostics
      )
  if (!options.skipBodies) options.cache?.save()
  const converted = read.blank.map(({node, file}) => blankPage(node, file, headOf(file).head))
  settleBlankPages([...blankPages, ...converted], {root: rootTopic, byPath, diagnostics})
  const {assets} = read
  validateTree(rootTopic, diagnostics)
  options.frontMatter?.save()
  const snippetBases = reading.snippetBases ?? [repository ?? root]
  return {dir: root, root: rootTopic, diagnostics, assets, byPath, articleCount: articleCountOf(byPath), snippetBases}
}

/** A page whose body converts to nothing (`blank-pages.ts`). */
function blankPage(node: LocalNode, file: string, head: DocumentHead): BlankPage {
  const line = Math.max(1, head.frontMatter.lineCount + 1)
  return {node, file, written: true, frontMatter: head.frontMatter.yaml, line}
}

/** The options' link resolution, with the docs site's folders (`@site/`, its static folders) when a site was found. */
function linksOf(options: ScanOptions, site: SiteNavigation | undefined): LinkOptions | undefined {
  if (!site) return options.links
  return {...options.links, site: {siteDir: site.siteDir, staticDirs: site.staticDirs}}
}

/**
 * Reads a text file of `contents` by repo-relative path, decoding each once, so an encoding problem is reported
 * once. The bytes of a file are let go once decoded: the scan held every file twice until its end.
 */
function textReader(contents: Map<string, Uint8Array>, diagnostics: Diagnostic[]): (relative: string) => string {
  const texts = new Map<string, string>()
  return (relative) => {
    let text = texts.get(relative)
    if (text === undefined) {
      texts.set(relative, (text = decodeText(contents.get(relative)!, relative, diagnostics)))
      contents.delete(relative)
    }
    return text
  }
}

/** Reads a document's text and head, each document once, so its front matter problems are reported once. */
function headReader(
  readText: (relative: string) => string,
  options: ScanOptions,
  diagnostics: Diagnostic[]
): (file: string) => {text: string; head: DocumentHead} {
  const heads = new Map<string, {text: string; head: DocumentHead}>()
  return (file) => {
    let read = heads.get(file)
    if (!read) {
      const text = readText(file)
      const head = options.reuse
        ? options.reuse.readHead(text, file, diagnostics)
        : readDocumentHead(text, file, diagnostics, options.frontMatter)
      heads.set(file, (read = {text, head}))
    }
    return read
  }
}

/** Says, for each partial among the walk's other files, that it is not published (a `_` name is easily missed). */
function reportPartials(walked: WalkedDir, diagnostics: Diagnostic[]): void {
  for (const file of otherFilesOf(walked)) {
    if (!isPartialName(path.posix.basename(file))) continue
    diagnostics.push({
      severity: 'info',
      file,
      message: 'A partial (its name starts with `_`) is no page of its own: not published',
      hint: 'Rename it without the `_` to publish it as an article',
      rule: 'partial-skipped'
    })
  }
}

/** The sidebar settings a document's front matter gives (id, label, position), only those it sets. */
function sidebarEntry(head: DocumentHead): SidebarFacts {
  const {id, sidebarLabel, sidebarPosition} = head.frontMatter
  return {
    ...(id !== undefined ? {id} : {}),
    ...(sidebarLabel !== undefined ? {label: sidebarLabel} : {}),
    ...(sidebarPosition !== undefined ? {position: sidebarPosition} : {})
  }
}

/** The `_permissions.yml` file of each folder that has one, by the folder's repo-relative path (`''` for the root). */
function permissionsFilesByFolder(walked: WalkedDir): Map<string, string> {
  return new Map(
    permissionsFilesOf(walked).map((file) => [path.posix.dirname(file) === '.' ? '' : path.posix.dirname(file), file])
  )
}

/** What reading the bodies needs: the folder, its documents, and the options' cache, hashing, links and kept trees. */
function bodyContext(
  root: string,
  repository: string | undefined,
  documents: DocumentIndex,
  options: ScanOptions
): BodyContext {
  return {
    root,
    repository,
    documents,
    cache: options.reuse?.bodies ?? options.cache ?? BodyCache.none(),
    ...(options.reuse ? {hashFile: options.reuse.hashFile} : {}),
    ...(options.links ? {links: options.links} : {}),
    ...(options.keptTrees !== undefined ? {keptTrees: options.keptTrees} : {}),
    ...(options.onBodyRead ? {onBodyRead: options.onBodyRead} : {}),
    ...(options.keepRender ? {keepRender: options.keepRender} : {})
  }
}

/** How an MkDocs site reads its pages (`mkdocs-site.ts`): snippets' base folders, folder-style page addresses. */
function siteReading(mkdocs: LoadedNavigation['mkdocs']): Pick<BodyContext, 'snippetBases' | 'directoryUrls'> {
  if (!mkdocs) return {}
  const site = parseMkdocsSite(mkdocs.text)
  const dir = path.dirname(mkdocs.path)
  return {
    snippetBases: site.snippetBases.map((base) => path.resolve(dir, base)),
    ...(site.directoryUrls ? {directoryUrls: mkdocs.docs} : {})
  }
}

/** How many of the nodes are articles. */
function articleCountOf(byPath: Record<string, LocalNode>): number {
  let articleCount = 0
  for (const node of Object.values(byPath)) if (node.kind === 'article') articleCount++
  return articleCount
}

/** Every text file the scan reads: the documents, `_permissions.yml` and the navigation files. */
function textFilesOf(walk: WalkedDir): string[] {
  return [...documentFilesOf(walk), ...permissionsFilesOf(walk), ...navigationTextFiles(walk)]
}

/** The documents of the walk, in folder order (the files of a folder, then its subfolders). */
function documentFilesOf(walk: WalkedDir): string[] {
  return documentFolders(walk).flatMap((folder) => folder.files)
}

/** The `_permissions.yml` files of the folders holding documents. */
function permissionsFilesOf(walk: WalkedDir): string[] {
  return documentFolders(walk).flatMap((folder) =>
    folder.others.filter((file) => path.posix.basename(file) === permissionsName)
  )
}

/** Every file of the walk that is no document (images, attachments, `_permissions.yml`). */
function otherFilesOf(walk: WalkedDir): string[] {
  return allFolders(walk).flatMap((folder) => folder.others)
}

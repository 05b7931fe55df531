/**
 * The body phase of a scan: each body's conversion messages and local
 * references (parsed, or read from the body cache), the references resolved
 * against the folder, and the content hash of every local file the bodies
 * use. File-system checks and file hashing run several at a time; the
 * diagnostics come out in document order all the same.
 */
import path from 'node:path'
import type {Root} from 'mdast'
import type {BodyFacts} from './body-cache.js'
import type {BodyStore} from './scan-reuse.js'
import type {Diagnostic} from './diagnostic.js'
import {mapLimit} from './map-limit.js'
import {dropPositions} from './markdown.js'
import {TreeBudget} from './tree-weight.js'
import {linksOf, SharedLinks} from './shared-links.js'
import {bodyKeyOf, parseForScan, takeHandedOver} from './body-facts.js'
import {renderKept, type KeepRender} from './scan-keep-render.js'
import {markLocalRefs, type DocumentIndex} from './references.js'
import {resolveContextOf, resolveLocalRefs, type DiagramUse, type LinkOptions} from './reference-resolution.js'
import {hashFile, type FileHash} from './hash.js'
import {lfsPointerDiagnostic} from './lfs-pointer.js'
import {expandIncludes} from './includes.js'
import {authorLines, composeLines, diagnosticOf, withReadfiles} from './author-lines.js'
import {plainBodyRefs} from './plain-body.js'
import {expandReadfiles} from './hugo-readfile.js'
import {mayPrintValues} from './site-data.js'
import {SiteFill} from './site-fill.js'
import {plainExternalUrls} from './external-urls.js'
import type {LocalAsset, LocalNode} from './types.js'
import {diagramPath} from '../diagrams/mermaid-source.js'
import {PublishSource} from '../trust/index.js'

/**
 * Parsed trees a scan keeps for rendering, at most: the first documents a
 * push writes find theirs ready. A tree of a 2-4 KB article holds about
 * 30 KB of heap, and V8 lets the heap grow to several times what stays
 * alive: bodies beyond this (or beyond `keptTreeNodesMax` nodes together,
 * which bounds trees of any shape by their size) are parsed again when they
 * are rendered (just ahead of their write, `prerender.ts`), so the peak
 * memory of a large push is bounded by the work in flight, not by the folder.
 */
export const keptTreesMax = 256

/** A document whose body is still to be read. */
export interface PendingBody {
  node: LocalNode
  /** The file that holds the body (`x.md` or `dir/_index.md`). */
  file: string
  body: string
  /** The YAML of its front matter ('' for none): the values its templates print come from it (`site-data.ts`). */
  frontMatter?: string
}

/** What the body phase needs from the scan. */
export interface BodyContext {
  /** Absolute real path of the folder. */
  root: string
  /** The repository that holds the folder (`repositoryRoot` of `root`), if any. */
  repository: string | undefined
  documents: DocumentIndex
  cache: BodyStore
  /** Hashes a local file the bodies use (default `hashFile`; a rescan reuses unchanged files' hashes). */
  hashFile?: (absolute: string) => Promise<FileHash>
  /** Parsed trees to keep at most (default `keptTreesMax`). */
  keptTrees?: number
  /** How links are resolved beyond the folder's documents (`resolveLocalRefs`). */
  links?: LinkOptions
  /** Absolute folders MkDocs snippets resolve against (default: the repository, else the folder). */
  snippetBases?: readonly string[]
  /** The absolute docs folder of an MkDocs site that serves pages as folders (`use_directory_urls`). */
  directoryUrls?: string
  /** Awaited after each body is read (`ScanOptions.onBodyRead`). */
  onBodyRead?: (done: number, total: number) => void | Promise<void>
  /** Offered each tree the scan parses; a tree it keeps the render of is not kept (`KeepRender`). */
  keepRender?: KeepRender
}

/** What reading the bodies found beside each node's own facts. */
export interface BodiesRead {
  /** The local files the bodies use, by content hash. */
  assets: Record<string, LocalAsset>
  /** The bodies that convert to nothing. */
  blank: PendingBody[]
}

/**
 * Reads every body of `bodies` into its node (`body`, `bodyKey`, `tree` when
 * parsed now, `resolutions`, `refs`); returns the local files they use, by
 * content hash, and the bodies that convert to nothing.
 */
export async function readBodies(
  bodies: readonly PendingBody[],
  context: BodyContext,
  diagnostics: Diagnostic[]
): Promise<BodiesRead> {
  // Each file is read and hashed as soon as a body is found using it, while the other bodies are parsed.
  const hashing = new Map<string, Promise<FileHash>>()
  const kept = new TreeBudget()
  const shared = new SharedLinks()
  // One door for every local file the bodies publish (includes, images, attachments): see src/trust/publishable.ts.
  const source = await PublishSource.open(context.repository ?? context.root, context.root)
  const linkContext = {
    ...resolveContextOf(context.root, context.repository, context.documents, source, context.links),
    ...(context.directoryUrls !== undefined ? {directoryUrls: context.directoryUrls} : {})
  }
  const snippetBases = context.snippetBases ?? [context.repository ?? context.root]
  // The site's configuration is read only when a body prints a value from it.
  const site = new SiteFill(source, context.root, context.repository ?? context.root)
  const blank: PendingBody[] = []
  let done = 0
  const results = await mapLimit(bodies, 16, async (pending) => {
    const {node, file, frontMatter} = pending
    let {body} = pending
    // Values the site's templates print are filled in first: the body text, and its cache key, holds them.
    let filledLines: number[] | undefined
    if (mayPrintValues(body)) ({body, lineOf: filledLines} = await site.fill(body, file, frontMatter ?? ''))
    // Hugo's readfile and mdBook's includes are expanded first: the included text is part of the body and its cache key.
    const read = await expandReadfiles(body, file, {
      root: context.root,
      top: context.repository ?? context.root,
      source
    })
    const expanded = withReadfiles(
      await expandIncludes(read.body, file, {root: context.root, source, snippetBases}),
      composeLines(read.lineOf, filledLines, read.body)
    )
    const found: Diagnostic[] = [...expanded.diagnostics]
    // Pull's round trip maps the converted body's lines back to the file's (an include moved them).
    if (expanded.lineOf) node.bodyLineOf = expanded.lineOf
    const {facts, tree} = readBody(node, file, expanded.body, context.cache, expanded.body === pending.body)
    shared.shareUrls(facts.refs)
    if (facts.blank) blank.push(pending)
    if (tree && context.keepRender) dropPositions(tree) // held until resolved, while others parse (`KeepRender`)
    for (const message of facts.messages) found.push(diagnosticOf(message, file, expanded))
    const refs = authorLines(facts.refs, expanded)
    node.externalUrls = authorLines(facts.urls, expanded)
    const resolution = await resolveLocalRefs(refs, file, linkContext, found)
    shared.share(resolution.resolutions)
    if (tree && !renderKept(node, tree, facts, resolution.resolutions, context.keepRender))
      keepTree(node, tree, kept, context)
    startHashing(resolution.used, hashing, context)
    await context.onBodyRead?.(++done, bodies.length)
    return {found, resolution}
  })
  results.forEach(({found, resolution}, index) => {
    const {node} = bodies[index]!
    diagnostics.push(...found)
    node.resolutions = resolution.resolutions
    if (node.tree) markLocalRefs(node.tree, resolution.resolutions)
    node.refs.links = linksOf(resolution.resolutions)
  })
  const files = new Map<string, FileHash>()
  for (const [relative, hashed] of hashing) files.set(relative, await hashed)
  // Uploaded, a Git LFS pointer is a broken image: one error naming them all, so nothing is written.
  const pointers = lfsPointerDiagnostic([...files].filter(([, hashed]) => hashed.lfsPointer).map(([file]) => file))
  if (pointers) diagnostics.push(pointers)
  const assets: Record<string, LocalAsset> = {}
  results.forEach(({resolution}, index) => {
    addAssetRefs(bodies[index]!.node, resolution.used, files, assets, context.root)
    addDiagramRefs(bodies[index]!.node, resolution.diagrams, assets, context.root)
  })
  // In document order, whatever order the bodies were read in.
  const order = new Map(bodies.map((pending, index) => [pending, index]))
  return {assets, blank: blank.sort((a, b) => order.get(a)! - order.get(b)!)}
}

/** Starts reading and hashing each file of `used` not started yet (awaited later, in order). */
function startHashing(used: readonly string[], hashing: Map<string, Promise<FileHash>>, context: BodyContext): void {
  for (const relative of used) {
    if (hashing.has(relative)) continue
    const hashed = (context.hashFile ?? hashFile)(path.join(context.root, relative))
    // Awaited by the caller, in order; until then a failed read must not count as unhandled.
    hashed.catch(() => undefined)
    hashing.set(relative, hashed)
  }
}

/** Keeps the fresh `tree` of `node` on it for rendering while the scan's budget of kept trees allows. */
function keepTree(node: LocalNode, tree: Root, kept: TreeBudget, context: BodyContext): void {
  if (kept.size < (context.keptTrees ?? keptTreesMax) && kept.keep(node.path, dropPositions(tree))) node.tree = tree
}

/**
 * Records the body of `node` and what parsing it finds: from the cache when
 * the same file held the same body before, or from a pattern when the body
 * is plain (no tree then: `bodyTree` parses it if rendering needs it), else
 * by parsing it (with the tree, for the caller to keep or not). `own`: the
 * body is the file's own text (nothing expanded into it), which a push can
 * let go of and read again (`body-release.ts`).
 */
function readBody(
  node: LocalNode,
  file: string,
  body: string,
  cache: BodyStore,
  own: boolean
): {facts: BodyFacts; tree?: Root} {
  node.body = body
  node.bodyKey = bodyKeyOf(file, body)
  if (own) node.fileBodyKey = node.bodyKey
  // A pull's proof parsed these very bytes of this file a moment ago: its facts (and tree, if handed over) are this parse's.
  const handed = takeHandedOver(node.bodyKey)
  if (handed) {
    cache.set(node.bodyKey, handed.facts)
    return handed
  }
  const cached = cache.get(node.bodyKey)
  if (cached) return {facts: cached}
  // An MDX body is always parsed: its `{expressions}` are warned about, its statements left out.
  const plainRefs = /\.mdx$/i.test(file) ? undefined : plainBodyRefs(body)
  if (plainRefs) {
    const facts: BodyFacts = {messages: [], refs: plainRefs, urls: plainExternalUrls(body)}
    cache.set(node.bodyKey, facts)
    return {facts}
  }
  const {facts, tree} = parseForScan(body, file)
  cache.set(node.bodyKey, facts)
  return {facts, tree}
}

/**
 * Adds the files a body uses to its refs (each content once) and to the
 * scan's assets: one per content, uploaded from its first path, every other
 * path holding the same bytes recorded beside it (`alsoAt`), so that each
 * body naming any of them is rendered with the one upload.
 */
function addAssetRefs(
  node: LocalNode,
  used: readonly string[],
  files: Map<string, FileHash>,
  assets: Record<string, LocalAsset>,
  root: string
): void {
  for (const assetPath of used) {
    const {sha256: hash, size} = files.get(assetPath)!
    const known = assets[hash]
    if (!known) assets[hash] = {path: assetPath, absolutePath: path.join(root, assetPath), sha256: hash, size}
    else if (known.path !== assetPath && !known.alsoAt?.includes(assetPath)) (known.alsoAt ??= []).push(assetPath)
    if (!node.refs.assets.some((a) => a.sha256 === hash))
      node.refs.assets.push({kind: 'image', path: assetPath, sha256: hash})
  }
}

/** Adds the diagrams and formulas a body uses, as assets keyed by their source (`diagramKey`), each once. */
function addDiagramRefs(
  node: LocalNode,
  diagrams: readonly DiagramUse[],
  assets: Record<string, LocalAsset>,
  root: string
): void {
  for (const {kind, key, source, file, line} of diagrams) {
    const relative = diagramPath(key, kind)
    assets[key] ??= {
      path: relative,
      absolutePath: path.join(root, relative),
      sha256: key,
      size: 0,
      diagram: {source, file, ...(line !== undefined ? {line} : {}), ...(kind !== 'mermaid' ? {kind} : {})}
    }
    if (!node.refs.assets.some((a) => a.sha256 === key))
      node.refs.assets.push({kind: 'image', path: relative, sha256: key})
  }
}

/** The content hash of every path the bodies use (each asset's own path and the paths holding the same bytes). */
export function assetHashesByPath(assets: Readonly<Record<string, LocalAsset>>): Map<string, string> {
  const hashes = new Map<string, string>()
  for (const asset of Object.values(assets)) {
    hashes.set(asset.path, asset.sha256)
    for (const other of asset.alsoAt ?? []) hashes.set(other, asset.sha256)
  }
  return hashes
}

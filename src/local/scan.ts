/**
 * Scans a folder into the desired tree: topics from folders, articles from
 * `.md` files, titles, ids, permissions, bodies (through the GFM to dialect
 * conversion) and the local files they use; then validates it all. Nothing
 * here talks to the network.
 */
import {createHash} from 'node:crypto'
import {readFile, realpath} from 'node:fs/promises'
import path from 'node:path'
import type {Diagnostic} from './diagnostic.js'
import {splitDocument} from './body.js'
import {BodyCache, type BodyFacts} from './body-cache.js'
import {toKbTree, type ConversionMessage} from './markdown.js'
import {parsePermissionsFile} from './permissions.js'
import {collectLocalRefs, markLocalRefs, resolveLocalRefs, type DocumentIndex, type Resolved} from './references.js'
import type {LinkRef, LocalArticle, LocalAsset, LocalNode, LocalTopic, ScanResult} from './types.js'
import {walkFolder, loadIgnore, type WalkedDir} from './walk.js'
import {validateTree} from './validate.js'
import {readTextFile} from './text.js'

/** Options of `scanFolder`. */
export interface ScanOptions {
  /** Skip body conversion (faster, for listing only). */
  skipBodies?: boolean
  /** Extra gitignore-style patterns excluded like `.kbsyncignore` ones (the config's `ignore`). */
  ignore?: readonly string[]
  /** Reads unchanged bodies from this cache instead of parsing them, and records the others in it (then saves it). */
  cache?: BodyCache
}

/** sha256 of a string or bytes, hex. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}

const indexName = '_index.md'
/** The largest article body the scanner converts (bytes). */
export const maxArticleBytes = 5 * 1048576
const permissionsName = '_permissions.yml'

/**
 * Reads the folder at `dir` into the desired tree, with every problem found
 * (errors and warnings, each with file and line where it has one).
 */
export async function scanFolder(dir: string, options: ScanOptions = {}): Promise<ScanResult> {
  const root = await realpath(path.resolve(dir))
  const diagnostics: Diagnostic[] = []
  const rules = await loadIgnore(root, options.ignore)
  const walked = await walkFolder(root, rules, diagnostics)
  const byPath: Record<string, LocalNode> = {}
  const documents: DocumentIndex = {articles: new Set(), topics: new Set()}
  const bodies: Array<{node: LocalNode; file: string; body: string}> = []

  const readText = (relative: string) => readTextFile(path.join(root, relative), relative, diagnostics)

  const buildTopic = async (walk: WalkedDir): Promise<LocalTopic> => {
    const name = walk.path === '' ? '' : path.posix.basename(walk.path)
    const topic: LocalTopic = {kind: 'topic', path: walk.path, title: name, children: [], refs: {links: [], assets: []}}
    documents.topics.add(walk.path)
    byPath[walk.path] = topic
    const indexFile = walk.files.find((file) => path.posix.basename(file) === indexName)
    if (indexFile) {
      const text = await readText(indexFile)
      const parts = splitDocument(text, indexFile, diagnostics, false)
      topic.file = indexFile
      topic.sourceHash = sha256(text.replace(/\r\n?/g, '\n'))
      if (parts.frontMatter.title) topic.title = parts.frontMatter.title
      if (parts.frontMatter.kbId) topic.kbId = parts.frontMatter.kbId
      if (parts.frontMatter.permissions) {
        diagnostics.push({severity: 'warning', file: indexFile, line: 2, message: 'A topic\'s permissions belong in `_permissions.yml`; the front matter key is ignored', rule: 'permissions-misplaced'})
      }
      if (walk.path === '' && (parts.frontMatter.title || parts.frontMatter.kbId)) {
        diagnostics.push({severity: 'warning', file: indexFile, line: 1, message: 'The root folder maps to the configured root: its `title` and `kb_id` are ignored', rule: 'root-index'})
      }
      if (!parts.empty) bodies.push({node: topic, file: indexFile, body: parts.body})
    }
    const permissionsFile = walk.others.find((file) => path.posix.basename(file) === permissionsName)
    if (permissionsFile) {
      const permissions = parsePermissionsFile(await readText(permissionsFile), permissionsFile, diagnostics)
      if (permissions) topic.permissions = permissions
    }
    for (const file of walk.files) {
      if (file === indexFile) continue
      topic.children.push(await buildArticle(file))
    }
    // A folder without any document (img/, files/) holds assets: it is no topic.
    for (const child of walk.dirs) if (hasDocuments(child)) topic.children.push(await buildTopic(child))
    return topic
  }

  const buildArticle = async (file: string): Promise<LocalArticle> => {
    const text = await readText(file)
    const parts = splitDocument(text, file, diagnostics, true, (fm) => fm.title)
    const title = parts.frontMatter.title ?? parts.headingTitle ?? path.posix.basename(file, '.md')
    const article: LocalArticle = {
      kind: 'article',
      path: file,
      file,
      title,
      source: text,
      sourceHash: sha256(text.replace(/\r\n?/g, '\n')),
      hasFrontMatter: parts.frontMatter.present,
      refs: {links: [], assets: []}
    }
    if (parts.headingLine !== undefined) article.titleLine = parts.headingLine
    if (parts.frontMatter.kbId) article.kbId = parts.frontMatter.kbId
    if (parts.frontMatter.permissions) article.permissions = parts.frontMatter.permissions
    documents.articles.add(file)
    byPath[file] = article
    if (parts.empty) {
      diagnostics.push({
        severity: 'error',
        file,
        line: parts.headingLine ?? Math.max(1, parts.frontMatter.lineCount),
        message: 'The article has no body; the platform rejects an empty article',
        hint: 'Write at least one line of text under the title',
        rule: 'empty-body'
      })
    } else if (Buffer.byteLength(parts.body) > maxArticleBytes) {
      // Converting tens of MB takes minutes and the platform's editor could not open the result: refuse early.
      diagnostics.push({
        severity: 'error',
        file,
        line: 1,
        message: `The article is ${(Buffer.byteLength(parts.body) / 1048576).toFixed(1)} MB; the limit is ${maxArticleBytes / 1048576} MB`,
        hint: 'Split it into several articles, or attach large content as files',
        rule: 'article-too-large'
      })
    } else {
      bodies.push({node: article, file, body: parts.body})
    }
    return article
  }

  const rootTopic = await buildTopic(walked)
  const assets: Record<string, LocalAsset> = {}
  const hashes = new Map<string, string>()
  if (!options.skipBodies) {
    const cache = options.cache ?? BodyCache.none()
    for (const {node, file, body} of bodies) {
      const facts = readBody(node, file, body, cache)
      for (const message of facts.messages) diagnostics.push(diagnosticOf(message, file))
      if (node.kind === 'topic') node.sourceHash ??= sha256(body)
      const {resolutions, used} = await resolveLocalRefs(facts.refs, file, root, documents, diagnostics)
      node.resolutions = resolutions
      if (node.tree) markLocalRefs(node.tree, resolutions)
      node.refs.links = linksOf(resolutions)
      for (const assetPath of used) {
        let hash = hashes.get(assetPath)
        if (hash === undefined) {
          const bytes = await readFile(path.join(root, assetPath))
          hash = sha256(bytes)
          hashes.set(assetPath, hash)
          assets[hash] ??= {path: assetPath, absolutePath: path.join(root, assetPath), sha256: hash, size: bytes.length}
        }
        if (!node.refs.assets.some((a) => a.sha256 === hash)) {
          node.refs.assets.push({kind: 'image', path: assetPath, sha256: hash})
        }
      }
    }
    await cache.save()
  }
  validateTree(rootTopic, diagnostics)
  let articleCount = 0
  for (const node of Object.values(byPath)) if (node.kind === 'article') articleCount++
  return {dir: root, root: rootTopic, diagnostics, assets, byPath, articleCount}
}

/**
 * Records the body of `node` and what parsing it finds: from the cache when
 * the same file held the same body before (no tree then: `bodyTree` parses
 * it if rendering needs it), else by parsing it (the tree is kept).
 */
function readBody(node: LocalNode, file: string, body: string, cache: BodyCache): BodyFacts {
  node.body = body
  node.bodyKey = sha256(file + '\0' + body)
  const cached = cache.get(node.bodyKey)
  if (cached) return cached
  const {tree, messages} = toKbTree(body, file)
  const facts: BodyFacts = {messages, refs: collectLocalRefs(tree)}
  node.tree = tree
  cache.set(node.bodyKey, facts)
  return facts
}

/** A conversion message of the body of `file` as a diagnostic. */
function diagnosticOf(message: ConversionMessage, file: string): Diagnostic {
  return {
    severity: message.fatal ? 'error' : 'warning',
    file,
    ...(message.line ? {line: message.line} : {}),
    ...(message.column ? {column: message.column} : {}),
    message: message.message,
    ...(message.ruleId ? {rule: message.ruleId} : {})
  }
}

/** The documents a body links to, each once, in document order. */
function linksOf(resolutions: ReadonlyArray<Resolved | null>): LinkRef[] {
  const links = new Map<string, LinkRef>()
  for (const resolved of resolutions) {
    if (resolved && 'link' in resolved) links.set(resolved.link.kind + ':' + resolved.link.target, {...resolved.link})
  }
  return [...links.values()]
}

/** Whether a folder holds a `.md` file anywhere inside. */
function hasDocuments(walk: WalkedDir): boolean {
  return walk.files.length > 0 || walk.dirs.some(hasDocuments)
}

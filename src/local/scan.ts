/**
 * Scans a folder into the desired tree: topics from folders, articles from
 * `.md` files, titles, ids, permissions, bodies (through the GFM to dialect
 * conversion) and the local files they use; then validates it all. Nothing
 * here talks to the network.
 */
import {realpath} from 'node:fs/promises'
import path from 'node:path'
import type {Diagnostic} from './diagnostic.js'
import {splitDocument} from './body.js'
import {BodyCache} from './body-cache.js'
import {sourceHashOf} from './hash.js'
import {readBodies, type PendingBody} from './scan-bodies.js'
import {parsePermissionsFile} from './permissions.js'
import type {DocumentIndex, LinkOptions} from './references.js'
import {emptyLinkTargets, recordDocument} from './link-targets.js'
import type {LocalArticle, LocalNode, LocalTopic, ScanResult} from './types.js'
import {walkFolder, loadIgnore, type WalkedDir} from './walk.js'
import {validateTree} from './validate.js'
import {decodeText, readFiles} from './text.js'

/** Options of `scanFolder`. */
export interface ScanOptions {
  /** Skip body conversion (faster, for listing only). */
  skipBodies?: boolean
  /** Extra gitignore-style patterns excluded like `.kbsyncignore` ones (the config's `ignore`). */
  ignore?: readonly string[]
  /** Reads unchanged bodies from this cache instead of parsing them, and records the others in it (then saves it). */
  cache?: BodyCache
  /** Parsed trees to keep for rendering, at most (default `keptTreesMax`); the others are parsed again when rendered. */
  keptTrees?: number
  /** How links are resolved beyond the folder's documents: broken links, repository links, the site root. */
  links?: LinkOptions
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
  const documents: DocumentIndex = {...emptyLinkTargets(new Set(), new Set()), files: new Set(otherFilesOf(walked))}
  const bodies: PendingBody[] = []

  const contents = await readFiles(root, textFilesOf(walked))
  const readText = (relative: string) => decodeText(contents.get(relative)!, relative, diagnostics)

  const buildTopic = (walk: WalkedDir): LocalTopic => {
    // Titles from names are NFC: macOS may hand out names in NFD, which would look the same and compare different.
    const name = walk.path === '' ? '' : path.posix.basename(walk.path).normalize('NFC')
    const topic: LocalTopic = {kind: 'topic', path: walk.path, title: name, children: [], refs: {links: [], assets: []}}
    documents.topics.add(walk.path)
    byPath[walk.path] = topic
    const indexFile = walk.files.find((file) => path.posix.basename(file) === indexName)
    if (indexFile) {
      const text = readText(indexFile)
      const parts = splitDocument(text, indexFile, diagnostics, false)
      topic.file = indexFile
      recordDocument(documents, indexFile, {target: walk.path, kind: 'topic'}, parts.frontMatter)
      topic.sourceHash = sourceHashOf(text)
      if (parts.frontMatter.title) topic.title = parts.frontMatter.title
      if (parts.frontMatter.kbId) topic.kbId = parts.frontMatter.kbId
      if (parts.frontMatter.permissions) {
        diagnostics.push({severity: 'warning', file: indexFile, line: 2, message: 'A topic\'s permissions belong in `_permissions.yml`; the front matter key is ignored', rule: 'permissions-misplaced'})
      }
      if (walk.path === '') {
        // The root is the knowledge base or the configured topic: kbsync never writes that item itself.
        const ignored = [parts.frontMatter.title ? '`title`' : '', parts.frontMatter.kbId ? '`kb_id`' : '', parts.empty ? '' : 'body'].filter(Boolean)
        if (ignored.length > 0) {
          diagnostics.push({
            severity: 'warning',
            file: indexFile,
            line: 1,
            message: `The root folder maps to the configured root, which kbsync does not write: its ${ignored.join(' and ')} ${ignored.length > 1 ? 'are' : 'is'} ignored`,
            hint: 'Move the text into an article, or sync the parent folder so that this one is a topic',
            rule: 'root-index'
          })
        }
      } else if (!parts.empty) bodies.push({node: topic, file: indexFile, body: parts.body})
    }
    const permissionsFile = walk.others.find((file) => path.posix.basename(file) === permissionsName)
    if (permissionsFile) {
      const permissions = parsePermissionsFile(readText(permissionsFile), permissionsFile, diagnostics)
      if (permissions) topic.permissions = permissions
    }
    for (const file of walk.files) {
      if (file === indexFile) continue
      topic.children.push(buildArticle(file))
    }
    // A folder without any document (img/, files/) holds assets: it is no topic.
    for (const child of walk.dirs) if (hasDocuments(child)) topic.children.push(buildTopic(child))
    return topic
  }

  const buildArticle = (file: string): LocalArticle => {
    const text = readText(file)
    const parts = splitDocument(text, file, diagnostics, true, (fm) => fm.title)
    const title = parts.frontMatter.title ?? parts.headingTitle ?? path.posix.basename(file, '.md').normalize('NFC')
    const article: LocalArticle = {
      kind: 'article',
      path: file,
      file,
      title,
      source: text,
      sourceHash: sourceHashOf(text),
      hasFrontMatter: parts.frontMatter.present,
      refs: {links: [], assets: []}
    }
    if (parts.headingLine !== undefined) article.titleLine = parts.headingLine
    if (parts.frontMatter.kbId) article.kbId = parts.frontMatter.kbId
    if (parts.frontMatter.permissions) article.permissions = parts.frontMatter.permissions
    documents.articles.add(file)
    recordDocument(documents, file, {target: file, kind: 'article'}, parts.frontMatter)
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

  const rootTopic = buildTopic(walked)
  const assets = options.skipBodies ? {} : await readBodies(bodies, {root, documents, cache: options.cache ?? BodyCache.none(), ...(options.links ? {links: options.links} : {}), ...(options.keptTrees !== undefined ? {keptTrees: options.keptTrees} : {})}, diagnostics)
  if (!options.skipBodies) await options.cache?.save()
  validateTree(rootTopic, diagnostics)
  let articleCount = 0
  for (const node of Object.values(byPath)) if (node.kind === 'article') articleCount++
  return {dir: root, root: rootTopic, diagnostics, assets, byPath, articleCount}
}

/** Every text file the scan reads: `_index.md`, `_permissions.yml` and the articles. */
function textFilesOf(walk: WalkedDir): string[] {
  const own = walk.others.filter((file) => path.posix.basename(file) === permissionsName)
  return [...walk.files, ...own, ...walk.dirs.filter(hasDocuments).flatMap(textFilesOf)]
}

/** Every file of the walk that is no document (images, attachments, `_permissions.yml`). */
function otherFilesOf(walk: WalkedDir): string[] {
  return [...walk.others, ...walk.dirs.flatMap(otherFilesOf)]
}

/** Whether a folder holds a `.md` file anywhere inside. */
function hasDocuments(walk: WalkedDir): boolean {
  return walk.files.length > 0 || walk.dirs.some(hasDocuments)
}

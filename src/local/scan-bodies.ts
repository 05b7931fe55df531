/**
 * The body phase of a scan: each body's conversion messages and local
 * references (parsed, or read from the body cache), the references resolved
 * against the folder, and the content hash of every local file the bodies
 * use. File-system checks and file hashing run several at a time; the
 * diagnostics come out in document order all the same.
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import type {BodyCache, BodyFacts} from './body-cache.js'
import type {Diagnostic} from './diagnostic.js'
import {mapLimit} from './map-limit.js'
import type {ConversionMessage} from './markdown.js'
import {parseBodies, type ParseOptions} from './parse-pool.js'
import {markLocalRefs, resolveLocalRefs, type DocumentIndex, type Resolved} from './references.js'
import {sha256} from './hash.js'
import type {LinkRef, LocalAsset, LocalNode} from './types.js'

/** A document whose body is still to be read. */
export interface PendingBody {
  node: LocalNode
  /** The file that holds the body (`x.md` or `dir/_index.md`). */
  file: string
  body: string
}

/** What the body phase needs from the scan. */
export interface BodyContext {
  /** Absolute real path of the folder. */
  root: string
  documents: DocumentIndex
  cache: BodyCache
  /** How bodies the cache does not know are parsed (workers). */
  parse?: ParseOptions
}

/**
 * Reads every body of `bodies` into its node (`body`, `bodyKey`, `tree` when
 * parsed now, `resolutions`, `refs`); returns the local files they use, by
 * content hash.
 */
export async function readBodies(bodies: readonly PendingBody[], context: BodyContext, diagnostics: Diagnostic[]): Promise<Record<string, LocalAsset>> {
  const facts = await bodyFacts(bodies, context)
  const results = await mapLimit(bodies, 16, async ({file}, index) => {
    const found: Diagnostic[] = []
    for (const message of facts[index]!.messages) found.push(diagnosticOf(message, file))
    const resolution = await resolveLocalRefs(facts[index]!.refs, file, context.root, context.documents, found)
    return {found, resolution}
  })
  const used: string[] = []
  results.forEach(({found, resolution}, index) => {
    const {node} = bodies[index]!
    diagnostics.push(...found)
    node.resolutions = resolution.resolutions
    if (node.tree) markLocalRefs(node.tree, resolution.resolutions)
    node.refs.links = linksOf(resolution.resolutions)
    used.push(...resolution.used)
  })
  const files = await hashFiles(context.root, [...new Set(used)])
  const assets: Record<string, LocalAsset> = {}
  results.forEach(({resolution}, index) => addAssetRefs(bodies[index]!.node, resolution.used, files, assets, context.root))
  return assets
}

/**
 * Records each body on its node and finds what parsing it gives: from the
 * cache when the same file held the same body before (no tree then:
 * `bodyTree` parses it if rendering needs it), else by parsing it (on
 * several cores when there are many; the tree is kept).
 */
async function bodyFacts(bodies: readonly PendingBody[], context: BodyContext): Promise<BodyFacts[]> {
  const facts: Array<BodyFacts | undefined> = bodies.map(({node, file, body}) => {
    node.body = body
    node.bodyKey = sha256(file + '\0' + body)
    return context.cache.get(node.bodyKey)
  })
  const missing = bodies.filter((_, index) => facts[index] === undefined)
  const parsed = await parseBodies(missing, context.parse)
  missing.forEach(({node}, index) => {
    const {tree, messages, refs} = parsed[index]!
    node.tree = tree
    context.cache.set(node.bodyKey!, {messages, refs})
  })
  let next = 0
  return facts.map((known) => known ?? parsed[next++]!)
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

/** Reads and hashes the files `paths` (under `root`), a few at a time. */
async function hashFiles(root: string, paths: readonly string[]): Promise<Map<string, {sha256: string; size: number}>> {
  const hashed = await mapLimit(paths, 8, async (relative) => {
    const bytes = await readFile(path.join(root, relative))
    return {sha256: sha256(bytes), size: bytes.length}
  })
  return new Map(paths.map((relative, index) => [relative, hashed[index]!]))
}

/** Adds the files a body uses to its refs (each content once) and to the scan's assets (first path wins). */
function addAssetRefs(node: LocalNode, used: readonly string[], files: Map<string, {sha256: string; size: number}>, assets: Record<string, LocalAsset>, root: string): void {
  for (const assetPath of used) {
    const {sha256: hash, size} = files.get(assetPath)!
    assets[hash] ??= {path: assetPath, absolutePath: path.join(root, assetPath), sha256: hash, size}
    if (!node.refs.assets.some((a) => a.sha256 === hash)) node.refs.assets.push({kind: 'image', path: assetPath, sha256: hash})
  }
}

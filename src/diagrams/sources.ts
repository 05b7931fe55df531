/**
 * The sources of the diagrams and formulas a folder published, kept beside
 * their renderings (`.kbsync/diagrams/<kind>-<key>.mmd`, `.tex`, `.puml`,
 * `.d2`): the platform keeps only the image, so a pull gives the source
 * back from here, by the image's URL (the state maps each key to its
 * uploaded file's URL).
 */
import {readdirSync, realpathSync} from 'node:fs'
import path from 'node:path'
import {existsInside, writeFileInside, type SyncState} from '../local/index.js'
import {isInside} from '../local/walk.js'
import {readTextInsideSync} from '../trust/index.js'
import {codeMarkerPath} from './code-markers.js'
import type {Root} from 'mdast'
import {visit} from 'unist-util-visit'
import {diagramKinds, nodeDiagramKind, sourceExtensions, type DiagramKind} from './kinds.js'
import {diagramFile, diagramFolder, diagramKey, normalSource} from './mermaid-source.js'

/** A source the folder published, as a pull gives it back. */
export interface DiagramSource {
  kind: DiagramKind
  source: string
}

/** The most bytes of a kept source read back (mermaid itself refuses sources over 50,000 characters). */
const maxSourceBytes = 256 * 1024

/** Where the source of `kind` whose key is `key` is kept, relative to the folder. */
export function sourcePath(key: string, kind: DiagramKind = 'mermaid'): string {
  return diagramFile(key, sourceExtensions[kind], kind)
}

/**
 * Keeps the source of a diagram, unless the one kept is already it (a
 * source planted or edited under that name is replaced); a folder that
 * cannot be written keeps none.
 */
export function keepSource(dir: string, key: string, source: string, kind: DiagramKind = 'mermaid'): void {
  // Advisory: without it pull gives the image back instead of the block.
  if (keptSource(dir, key, kind) === undefined) advisoryWrite(dir, sourcePath(key, kind), normalSource(source) + '\n')
}

/** The source kept for the key `key`, when one is and it is that source's (it hashes to `key`). */
export function keptSource(dir: string, key: string, kind: DiagramKind = 'mermaid'): string | undefined {
  const source = readCache(dir, sourcePath(key, kind), maxSourceBytes)?.replace(/\n$/, '')
  return source !== undefined && diagramKey(kind, source) === key ? source : undefined
}

/**
 * A file of the diagram cache (`relative` to the folder `dir`), as text:
 * only a regular file whose real path is inside `.kbsync/diagrams/` (no link
 * out of it, not even to another file of the repository; no FIFO or
 * device), of at most `maxBytes`, the cache folder itself inside `dir`.
 * Undefined otherwise: the cache is advisory, and what it does not hold
 * properly is made again.
 */
export function readCache(dir: string, relative: string, maxBytes: number): string | undefined {
  try {
    const folder = path.join(dir, diagramFolder)
    if (!isInside(realpathSync.native(dir), realpathSync.native(folder))) return undefined
    return readTextInsideSync(path.join(dir, relative), {boundary: folder, maxBytes})
  } catch {
    return undefined
  }
}

/**
 * Writes a cache file of the folder (with `once`, unless it is there); false
 * when it cannot (the diagram cache is advisory).
 */
export function advisoryWrite(dir: string, relative: string, data: string, {once = false} = {}): boolean {
  try {
    if (!(once && existsInside(dir, relative))) writeFileInside(dir, relative, data)
    return true
  } catch {
    return false
  }
}

const lookups = new WeakMap<SyncState, Map<string, DiagramSource>>()

/**
 * The source of the diagram or formula published at a file URL, for the
 * folder `dir` and its `state`: undefined when the URL is none of this
 * folder's or its source is not kept. Read once per state.
 */
export function diagramSourceLookup(dir: string, state: SyncState): (url: string) => DiagramSource | undefined {
  const found = diagramSources(dir, state)
  return (url) => found.get(url)
}

/** The sources `diagramSourceLookup` answers with, by file URL (plain data: a worker is given them). Read once per state. */
export function diagramSources(dir: string, state: SyncState): ReadonlyMap<string, DiagramSource> {
  let sources = lookups.get(state)
  if (!sources) {
    sources = new Map()
    const kept = keptNames(dir)
    for (const [key, entry] of Object.entries(state.assets)) {
      if (entry.url === undefined || kept.size === 0) continue
      const kind = diagramKinds.find((candidate) => kept.has(path.posix.basename(sourcePath(key, candidate))))
      // A source whose key is not this entry's was edited by hand: it would not give back the published diagram.
      const source = kind === undefined ? undefined : keptSource(dir, key, kind)
      if (source !== undefined) sources.set(entry.url, {kind: kind!, source})
    }
    lookups.set(state, sources)
  }
  return sources
}

/**
 * The names of the files kept in the diagram folder of `dir`, listed once
 * (a state of thousands of files pays one listing, not a path walk per
 * file and kind); empty when there is no such folder. Each source found is
 * still read through `keptSource`, which checks where it really lies.
 */
function keptNames(dir: string): Set<string> {
  try {
    return existsInside(dir, diagramFolder) ? new Set(readdirSync(path.join(dir, diagramFolder))) : new Set()
  } catch {
    return new Set()
  }
}

/** The diagram blocks (Mermaid, PlantUML, D2, `math` fences) the body `tree` holds as code, in document order. */
export function codeDiagrams(tree: Root): DiagramSource[] {
  const blocks: DiagramSource[] = []
  visit(tree, 'code', (node) => {
    const kind = nodeDiagramKind(node)
    if (kind !== undefined) blocks.push({kind, source: node.value})
  })
  return blocks
}

/**
 * Notes the diagram blocks the platform holds as code in a body (a pull
 * found them so, `codeDiagrams`): push keeps publishing them as code, so a
 * push after a pull changes nothing. Editing a block makes it a new
 * diagram, rendered.
 */
export function keepAsCode(dir: string, blocks: readonly DiagramSource[] | undefined): void {
  for (const block of blocks ?? []) keepOneAsCode(dir, block.kind, block.source)
}

function keepOneAsCode(dir: string, kind: DiagramKind, source: string): void {
  // Advisory: without it the block is rendered on the next push.
  advisoryWrite(dir, codeMarkerPath(diagramKey(kind, source), kind), '', {once: true})
}

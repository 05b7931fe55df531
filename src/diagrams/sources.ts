/**
 * The sources of the Mermaid diagrams a folder published, kept beside their
 * renderings (`.kbsync/diagrams/mermaid-<key>.mmd`): the platform keeps only
 * the image, so a pull gives the block back from here, by the image's URL
 * (the state maps each diagram's key to its uploaded file's URL).
 */
import {realpathSync} from 'node:fs'
import path from 'node:path'
import {existsInside, writeFileInside, type SyncState} from '../local/index.js'
import {isInside} from '../local/walk.js'
import {readTextInsideSync} from '../trust/index.js'
import {codeMarkerPath} from './code-markers.js'
import type {Root} from 'mdast'
import {visit} from 'unist-util-visit'
import {diagramFile, diagramFolder, isMermaidLang, mermaidKey, normalSource} from './mermaid-source.js'

/** The most bytes of a kept source read back (mermaid itself refuses sources over 50,000 characters). */
const maxSourceBytes = 256 * 1024

/** Where the source of the diagram whose key is `key` is kept, relative to the folder. */
export function sourcePath(key: string): string {
  return diagramFile(key, '.mmd')
}

/**
 * Keeps the source of a diagram, unless the one kept is already it (a
 * source planted or edited under that name is replaced); a folder that
 * cannot be written keeps none.
 */
export function keepSource(dir: string, key: string, source: string): void {
  // Advisory: without it pull gives the image back instead of the block.
  if (keptSource(dir, key) === undefined) advisoryWrite(dir, sourcePath(key), normalSource(source) + '\n')
}

/** The source kept for the key `key`, when one is and it is that diagram's (it hashes to `key`). */
export function keptSource(dir: string, key: string): string | undefined {
  const source = readCache(dir, sourcePath(key), maxSourceBytes)?.replace(/\n$/, '')
  return source !== undefined && mermaidKey(source) === key ? source : undefined
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

const lookups = new WeakMap<SyncState, Map<string, string>>()

/**
 * The source of the diagram published at a file URL, for the folder `dir`
 * and its `state`: undefined when the URL is no diagram of this folder or
 * its source is not kept. Read once per state.
 */
export function diagramSourceLookup(dir: string, state: SyncState): (url: string) => string | undefined {
  let sources = lookups.get(state)
  if (!sources) {
    sources = new Map()
    for (const [key, entry] of Object.entries(state.assets)) {
      if (entry.url === undefined || !existsInside(dir, sourcePath(key))) continue
      // A source whose key is not this entry's was edited by hand: it would not give back the published diagram.
      const source = keptSource(dir, key)
      if (source !== undefined) sources.set(entry.url, source)
    }
    lookups.set(state, sources)
  }
  const found = sources
  return (url) => found.get(url)
}

/**
 * Notes the Mermaid blocks the platform holds as code in the body `tree`
 * (a pull found them so): push keeps publishing them as code, so a push
 * after a pull changes nothing. Editing a block makes it a new diagram,
 * rendered.
 */
export function keepAsCode(dir: string, tree: Root | undefined): void {
  if (tree)
    visit(tree, 'code', (node) => {
      if (isMermaidLang(node.lang)) keepOneAsCode(dir, node.value)
    })
}

function keepOneAsCode(dir: string, source: string): void {
  // Advisory: without it the block is rendered on the next push.
  advisoryWrite(dir, codeMarkerPath(mermaidKey(source)), '', {once: true})
}

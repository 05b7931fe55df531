/**
 * Rendered sources as the folder side sees them: the key a diagram or a
 * formula is known by (a hash of its kind and source, never of the rendered
 * image, so an unchanged source is never rendered or uploaded again), where
 * its rendered SVG is kept, and the alt text its image gets. Pure: no
 * renderer, no files.
 */
import {createHash} from 'node:crypto'
import {altOf, type DiagramKind} from './kinds.js'

/** A version in the key: a release that renders differently changes it, and every diagram of the kind is rendered anew. */
const keyFormats: Record<DiagramKind, string> = {
  mermaid: 'kbsync-mermaid/1',
  plantuml: 'kbsync-plantuml/1',
  d2: 'kbsync-d2/1',
  math: 'kbsync-math/1',
  'math-inline': 'kbsync-math-inline/1'
}

/** Where rendered diagrams are kept, relative to the synced folder (a dot-folder: never scanned). */
export const diagramFolder = '.kbsync/diagrams'

/** Whether a code block's info string (`lang`) makes it a Mermaid diagram. */
export function isMermaidLang(lang: string | null | undefined): boolean {
  return typeof lang === 'string' && lang.toLowerCase() === 'mermaid'
}

/** The key of a source of `kind`: sha256 of its kind and source (line ends made LF, trailing blank lines dropped). */
export function diagramKey(kind: DiagramKind, source: string): string {
  return createHash('sha256')
    .update(`${keyFormats[kind]}\0${normalSource(source)}`)
    .digest('hex')
}

/** The key of a Mermaid diagram (`diagramKey`). */
export function mermaidKey(source: string): string {
  return diagramKey('mermaid', source)
}

/** The source as it is hashed and rendered. */
export function normalSource(source: string): string {
  return source.replace(/\r\n?/g, '\n').trimEnd()
}

/** The folder-relative path of the rendered SVG of the source of `kind` whose key is `key` (also the uploaded file's name). */
export function diagramPath(key: string, kind: DiagramKind = 'mermaid'): string {
  return `${diagramFolder}/${kind}-${key.slice(0, 16)}.svg`
}

/** The file beside the rendering of the source whose key is `key` that ends in `ext` (`.mmd`, `.code`, `.error.txt`). */
export function diagramFile(key: string, ext: string, kind: DiagramKind = 'mermaid'): string {
  return diagramPath(key, kind).replace(/\.svg$/, ext)
}

/** The alt text of a Mermaid diagram's image: its first non-empty line (`flowchart LR`), else "diagram". */
export function diagramAlt(source: string): string {
  return altOf('mermaid', source)
}

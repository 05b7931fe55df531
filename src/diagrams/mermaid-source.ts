/**
 * Mermaid blocks as the folder side sees them: which code blocks are
 * diagrams, the key a diagram is known by (a hash of its source, never of
 * the rendered image, so an unchanged diagram is never rendered or uploaded
 * again), where its rendered SVG is kept, and the alt text its image gets.
 * Pure: no browser, no files.
 */
import {createHash} from 'node:crypto'

/** A version in the key: a release that renders differently changes it, and every diagram is rendered anew. */
const keyFormat = 'kbsync-mermaid/1'

/** Where rendered diagrams are kept, relative to the synced folder (a dot-folder: never scanned). */
export const diagramFolder = '.kbsync/diagrams'

/** Whether a code block's info string (`lang`) makes it a Mermaid diagram. */
export function isMermaidLang(lang: string | null | undefined): boolean {
  return typeof lang === 'string' && lang.toLowerCase() === 'mermaid'
}

/** The key of a diagram: sha256 of its source (line ends made LF, trailing blank lines dropped). */
export function mermaidKey(source: string): string {
  return createHash('sha256')
    .update(`${keyFormat}\0${normalSource(source)}`)
    .digest('hex')
}

/** The source as it is hashed and rendered. */
export function normalSource(source: string): string {
  return source.replace(/\r\n?/g, '\n').trimEnd()
}

/** The folder-relative path of the rendered SVG of the diagram whose key is `key` (also the uploaded file's name). */
export function diagramPath(key: string): string {
  return `${diagramFolder}/mermaid-${key.slice(0, 16)}.svg`
}

/** The file beside the rendering of the diagram whose key is `key` that ends in `ext` (`.mmd`, `.code`, `.error.txt`). */
export function diagramFile(key: string, ext: string): string {
  return diagramPath(key).replace(/\.svg$/, ext)
}

/** The alt text of a diagram's image: its first non-empty line (`flowchart LR`), else "diagram". */
export function diagramAlt(source: string): string {
  const first = source
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '' && !line.startsWith('%%'))
  return first ?? 'diagram'
}

/**
 * Diagram blocks the platform holds as code: a pull that finds one leaves a
 * marker by its key in `.kbsync/diagrams/` (`keepAsCode`), and the scan
 * publishes such a block as the code it is instead of rendering it, so a
 * push after a pull changes nothing. Only an existence check: the scan
 * imports this, and it imports nothing of the folder side.
 */
import {existsSync} from 'node:fs'
import path from 'node:path'
import type {DiagramKind} from './kinds.js'
import {diagramFile} from './mermaid-source.js'

/** The marker of the source of `kind` whose key is `key`, relative to the folder. */
export function codeMarkerPath(key: string, kind: DiagramKind = 'mermaid'): string {
  return diagramFile(key, '.code', kind)
}

/** Whether the source of `kind` whose key is `key` is one the platform holds as code, for the folder at `root`. */
export function keptAsCode(root: string, key: string, kind: DiagramKind = 'mermaid'): boolean {
  return existsSync(path.join(root, codeMarkerPath(key, kind)))
}

/**
 * The adapter between a pull and the pure merge (`src/merge/`): the
 * `MergeInput` of one document, from the base text, the local text and the
 * platform's body. The base is read as push reads it (the folder scanned
 * with the base in place of the file: front matter, title, includes, links
 * and files as the run resolves them), its rendered tree kept with the
 * file's positions. The merge asks for renders synchronously; a render is
 * a scan, which is not: the merge runs again with the renders it asked for
 * until it asks for none it lacks (it is pure, so a run with every answer is
 * the run).
 */
import type {Root} from 'mdast'
import {mergeDocument, type MergeInput, type MergeResult} from '../../../merge/index.js'
import {
  positionedBodyTree,
  toKbTree,
  type DocumentScanner,
  type LocalNode,
  type ScanResult
} from '../../../local/index.js'
import {renderBody, renderedTree, type RenderContext} from '../../shared/render.js'
import type {NoticeSettings} from '../../shared/notice.js'
import {ownLinesOf, restorePositions, toFileLines} from './source-lines.js'
import {stringifyKb} from '../../../dialect/index.js'

/** A body parsed as the scan parses it, positions kept. */
function parseSource(text: string, file: string): Root {
  return toKbTree(text, file).tree
}

/** What merging the documents of one pull reads. */
export interface MergeSetting {
  scanner: DocumentScanner
  /** The render context of a scan of the folder (ids after the pull, file URLs the state knows). */
  renderContext(scan: ScanResult): RenderContext
  /** The notice push opens each article with (config `notice`): part of the base's render, so of the platform's side too. */
  notice?: NoticeSettings
  /** What push does to a scanned document before it renders it (diagrams their renderer refused stay code). */
  prepare?(scan: ScanResult, node: LocalNode): void
}

/** One document to merge: the texts (LF line ends) and the platform's side. */
export interface DocumentMerge {
  /** The document's file, relative with `/`. */
  file: string
  base: string
  local: string
  /** The platform's body as a dialect tree (links in their platform form). */
  remoteTree: Root
  /** Dialect blocks in the author's Markdown, as pull writes a new file's body. */
  toAuthor(blocks: Root): string
}

/** Most runs of the merge for one document: each run may ask for the renders of the texts it made. */
const maxRuns = 4

/**
 * Merges the platform's side of `document` into its file. A base push
 * would refuse (it no longer converts, a link no longer resolves) is
 * unmergeable.
 */
export async function mergeWithBase(setting: MergeSetting, document: DocumentMerge): Promise<MergeResult> {
  const base = await setting.scanner.scan(document.file, document.base)
  if (!base || base.errors.length > 0) {
    const error = base?.errors[0]
    return {
      status: 'unmergeable',
      reason: `the file as last synced no longer converts${error ? `: ${error.message}` : ''}`,
      ...(error?.line !== undefined ? {line: error.line} : {})
    }
  }
  setting.prepare?.(base.scan, base.node)
  const context = setting.renderContext(base.scan)
  const positioned = positionedBodyTree(base.node)
  if (positioned) restorePositions(positioned, base.node.body ?? '', document.file, parseSource, stringifyKb)
  const own = ownLinesOf(document.base, base.node.body ?? '', base.node.bodyLineOf)
  const baseTree = positioned
    ? renderedTree({...base.node, tree: positioned}, context).tree!
    : ({type: 'root', children: []} as Root)
  toFileLines(baseTree, document.base, own)
  const renders = new Map<string, string | undefined>()
  const input: Omit<MergeInput, 'render' | 'local'> = {
    base: document.base,
    baseTree,
    remoteTree: document.remoteTree,
    ownLines: (start, end) => own.covers(start, end),
    toAuthor: document.toAuthor
  }
  return runMerge(setting, document, input, renders)
}

/**
 * `base` patched with the platform's changes alone (the local text being
 * the base): what a file merged with local edits was synced from, the base
 * its state records. Undefined when that merge does not succeed.
 */
export async function platformSide(setting: MergeSetting, document: DocumentMerge): Promise<string | undefined> {
  const result = await mergeWithBase(setting, {...document, local: document.base})
  return result.status === 'merged' ? result.text : undefined
}

async function runMerge(
  setting: MergeSetting,
  document: DocumentMerge,
  input: Omit<MergeInput, 'render' | 'local'>,
  renders: Map<string, string | undefined>
): Promise<MergeResult> {
  for (let run = 0; run < maxRuns; run++) {
    const asked = new Set<string>()
    const render = (text: string) => {
      if (renders.has(text)) return renders.get(text)
      asked.add(text)
      return undefined
    }
    const result = mergeDocument({...input, local: document.local, render})
    if (asked.size === 0) return result
    for (const text of asked) renders.set(text, await renderText(setting, document.file, text))
  }
  return {status: 'unmergeable', reason: 'the merge did not settle on a text'}
}

/** The canonical body the file `file` holding `text` renders to, as push renders it; undefined when push would refuse it. */
async function renderText(setting: MergeSetting, file: string, text: string): Promise<string | undefined> {
  const scanned = await setting.scanner.scan(file, text)
  if (!scanned || scanned.errors.length > 0) return undefined
  setting.prepare?.(scanned.scan, scanned.node)
  const rendered = renderBody(scanned.node, setting.renderContext(scanned.scan))
  // A placeholder (a link or a file not known yet) is no body the platform holds.
  return rendered.missingLinks.length + rendered.missingAssets.length === 0 ? rendered.body : undefined
}

/**
 * Includes kept working across a pull's moves: a page that includes a file
 * (an MkDocs `--8<-- "CONTRIBUTING.md"`, an mdBook `{{#include ../x.md}}`)
 * names it by path, so when the pull moves the included file, or moves the
 * including page (mdBook names resolve against it), the name is rewritten
 * to where the file now is. Left as it was, the include broke: the page
 * lost the included text, and every later push wrote it without that text.
 */
import path from 'node:path'
import {sourceHashOf, writeFileInside, type ScanResult} from '../../local/index.js'
import {findDirectives} from '../../local/include-selection.js'
import {blockName, endsSnippetBlock, parseSnippetName, snippetLine} from '../../local/snippets.js'
import {readText} from '../shared/document-files.js'
import {movedPath} from './moves.js'
import type {PullOp} from './plan.js'
import type {ApplyRun} from './run.js'

/** Where the names of one page resolve, before and after the moves. */
interface PageMoves {
  dir: string
  moves: readonly PullOp[]
  /** The folders snippet names resolve against, in order (they do not move). */
  snippetBases: readonly string[]
  /** The page's folder before and after the moves (mdBook names resolve against it). */
  pageFolder: {before: string; after: string}
}

/** The directives that name a file relative to the page. */
const includeKinds = new Set(['include', 'rustdoc_include', 'playground', 'playpen'])

/** `name` (relative to `base`) as it must be written after the moves, `base` becoming `baseAfter`; undefined when it stays. */
function movedName(name: string, base: string, baseAfter: string, page: PageMoves): string | undefined {
  const target = path.resolve(base, name)
  const relative = path.relative(page.dir, target).split(path.sep).join('/')
  const outside = relative.startsWith('..') || path.isAbsolute(relative)
  const targetAfter = outside ? target : path.join(page.dir, movedPath(relative, page.moves))
  if (targetAfter === target && baseAfter === base) return undefined
  const after = path.relative(baseAfter, targetAfter).split(path.sep).join('/')
  return after === name ? undefined : after
}

/** A snippet name (`file.md`, `file.md:3:8`) after the moves: the first base whose file moved names where it went. */
function movedSnippet(name: string, page: PageMoves): string | undefined {
  const {path: file} = parseSnippetName(name)
  for (const base of page.snippetBases) {
    const after = movedName(file, base, base, page)
    if (after !== undefined) return after + name.slice(file.length)
  }
  return undefined
}

/** `line` with its mdBook directives' paths as they must be written after the moves. */
function movedDirectives(line: string, page: PageMoves): string {
  let result = line
  for (const directive of findDirectives(line).reverse()) {
    if (directive.escaped || !includeKinds.has(directive.kind)) continue
    const after = movedName(directive.path, page.pageFolder.before, page.pageFolder.after, page)
    if (after === undefined) continue
    const text = line.slice(directive.index, directive.index + directive.length)
    const start = directive.index + text.indexOf(directive.path, 3 + directive.kind.length)
    result = result.slice(0, start) + after + result.slice(start + directive.path.length)
  }
  return result
}

/** `text` with the include and snippet names the moves broke rewritten (the same text when none is). */
export function renameIncludes(text: string, page: PageMoves): string {
  const lines = text.split('\n')
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    const snippet = snippetLine(line)
    if (snippet?.kind === 'single') {
      const after = movedSnippet(snippet.name, page)
      if (after !== undefined)
        lines[index] = line.replace(/(["'])(?:\\["']|[^"'])+\1/, (quoted) => quoted[0] + after + quoted[0])
    } else if (snippet?.kind === 'block') {
      for (index++; index < lines.length && !endsSnippetBlock(lines[index]!); index++) {
        const name = blockName(lines[index]!)
        const after = name === undefined ? undefined : movedSnippet(name, page)
        if (after !== undefined) lines[index] = lines[index]!.replace(name!, after)
      }
    } else if (line.includes('{{#')) lines[index] = movedDirectives(line, page)
  }
  return lines.join('\n')
}

/** The scanned documents with a file (an article's, a topic's body file): their state key and their file. */
function documentFiles(scan: ScanResult): Array<{key: string; file: string}> {
  return Object.values(scan.byPath).flatMap(({kind, path: key, file}) =>
    kind === 'article' ? [{key, file: file ?? key}] : file !== undefined ? [{key, file}] : []
  )
}

/**
 * Rewrites the include names the pull's `moves` broke, in the files of the
 * scanned documents, right after the moves (before documents are written or
 * merged, so they read the new names). A document the state held in sync
 * stays in sync: its entry takes the new file's hash.
 */
export async function rewriteIncludeNames(run: ApplyRun, moves: readonly PullOp[]): Promise<void> {
  if (moves.length === 0) return
  const {dir} = run
  const {scan, state} = run.context
  const snippetBases = scan.snippetBases ?? [dir]
  for (const {key, file: before} of documentFiles(scan)) {
    const file = movedPath(before, moves)
    const text = await readText(path.join(dir, file))
    if (text === undefined || (!text.includes('8<-') && !text.includes('{{#'))) continue
    const pageFolder = {before: path.dirname(path.join(dir, before)), after: path.dirname(path.join(dir, file))}
    const next = renameIncludes(text, {dir, moves, snippetBases, pageFolder})
    if (next === text) continue
    writeFileInside(dir, file, next)
    run.result.written.push(file)
    const entry = state.items[movedPath(key, moves)]
    if (entry?.sourceHash === sourceHashOf(text)) entry.sourceHash = sourceHashOf(next)
    run.result.diagnostics.push({
      severity: 'info',
      file,
      message: 'A file it includes moved: its include now names the file where it is',
      rule: 'pull-include-moved'
    })
  }
}

/**
 * mdBook includes, resolved when a folder is scanned: `{{#include path}}`
 * and `{{#rustdoc_include path}}` (with an anchor or a line range, see
 * `include-selection.ts`) are replaced by the part of the file they name,
 * `{{#playground path}}` by the file in a Rust code block, `{{#title …}}`
 * is left out; another `{{#name}}` (Handlebars in an example) is kept. They usually sit inside fenced code blocks
 * and are expanded there too (the directive is the only Markdown mdBook
 * reads inside code).
 *
 * A path resolves against the including file and may name any file inside
 * the git repository that holds the folder (mdBook books keep their
 * listings beside the book), or inside the folder when there is none, never
 * through a symbolic link that leaves it. A file, anchor or range that
 * cannot be read is a warning naming file and line, and the directive is
 * removed. Included files may include others, to `maxIncludeDepth` levels.
 *
 * The expanded text is the body (so a changed listing changes the body's
 * cache key and re-renders the article); `lineOf` maps its lines back to
 * the lines of the file the author wrote, for messages.
 */
import {readFile, realpath} from 'node:fs/promises'
import path from 'node:path'
import type {Diagnostic} from './diagnostic.js'
import {findDirectives, selectLines, type IncludeDirective} from './include-selection.js'
import {isInside} from './walk.js'

/** The directives that insert a file (`playground` and its old name `playpen` as a Rust code block). */
const includeKinds = new Set(['include', 'rustdoc_include', 'playground', 'playpen'])

/** How deep included files may include others. */
export const maxIncludeDepth = 8

/** Where includes resolve. */
export interface IncludeContext {
  /** Absolute real path of the synced folder (a body's file is relative to it). */
  root: string
  /** Absolute real path that included files must stay inside: the repository root, else the folder. */
  boundary: string
}

/** A body with its includes expanded. */
export interface ExpandedBody {
  body: string
  /** For each line of `body` (0-based), the 1-based line of the original body it comes from; absent when nothing was expanded. */
  lineOf?: number[]
  diagnostics: Diagnostic[]
}

/** The boundary of includes for the folder `root` (absolute, real): the repository that holds it (`repositoryRoot` of `root`), else the folder. */
export async function includeContext(root: string, repository: string | undefined): Promise<IncludeContext> {
  return {root, boundary: repository ? await realpath(repository) : root}
}

/** Expands the includes of `body`, the body of `file` (relative to the folder, with `/`); see the module comment. */
export async function expandIncludes(body: string, file: string, context: IncludeContext): Promise<ExpandedBody> {
  if (!body.includes('{{#')) return {body, diagnostics: []}
  const diagnostics: Diagnostic[] = []
  const lines: string[] = []
  const lineOf: number[] = []
  const source = body.split('\n')
  for (let index = 0; index < source.length; index++) {
    const place = {file, line: index + 1}
    const expanded = await expandLine(source[index]!, path.join(context.root, file), place, context, diagnostics, [])
    for (const line of expanded.split('\n')) {
      lines.push(line)
      lineOf.push(index + 1)
    }
  }
  return {body: lines.join('\n'), lineOf, diagnostics}
}

/** A line with its directives replaced; `chain` holds the files being included around it (cycles, depth). */
async function expandLine(
  line: string,
  from: string,
  place: {file: string; line: number},
  context: IncludeContext,
  diagnostics: Diagnostic[],
  chain: string[]
): Promise<string> {
  const directives = findDirectives(line)
  if (directives.length === 0) return line
  let result = ''
  let last = 0
  for (const directive of directives) {
    result += line.slice(last, directive.index)
    last = directive.index + directive.length
    const column = directive.index + 1
    if (directive.escaped) result += line.slice(directive.index + 1, last)
    else if (directive.kind === 'title') continue
    // Another tool's `{{#name}}` (Handlebars' `{{#each}}` in an example) is no mdBook directive: kept as written.
    else if (!includeKinds.has(directive.kind)) result += line.slice(directive.index, last)
    else if (directive.kind === 'playground' || directive.kind === 'playpen') {
      // mdBook writes a runnable file as a Rust code block.
      const code = await replacement(directive, from, {...place, column}, context, diagnostics, chain)
      result += code === '' ? '' : '```rust\n' + code + '\n```'
    } else result += await replacement(directive, from, {...place, column}, context, diagnostics, chain)
  }
  return result + line.slice(last)
}

/** What a directive stands for: the selected text of its file, or nothing (with a warning when that is a problem). */
async function replacement(
  directive: IncludeDirective,
  from: string,
  place: {file: string; line: number; column: number},
  context: IncludeContext,
  diagnostics: Diagnostic[],
  chain: string[]
): Promise<string> {
  const warn = (rule: string, message: string, hint: string) => {
    diagnostics.push({severity: 'warning', ...place, rule, message, hint})
    return ''
  }
  const target = path.resolve(path.dirname(from), directive.path)
  const real = await realpath(target).catch(() => undefined)
  if (!real)
    return warn(
      'include-missing',
      `Included file ${directive.path} does not exist; the directive is left out.`,
      'Fix the path (it is relative to the including file).'
    )
  if (!isInside(context.boundary, real)) {
    return warn(
      'include-outside',
      `Included file ${directive.path} lies outside the repository (or folder) being synced; the directive is left out.`,
      'Include only files inside the repository.'
    )
  }
  if (chain.includes(real) || chain.length >= maxIncludeDepth) {
    return warn(
      'include-depth',
      `Included file ${directive.path} includes itself, or includes nest deeper than ${maxIncludeDepth} levels; the directive is left out.`,
      'Remove the include cycle.'
    )
  }
  const text = await readFile(real, 'utf8').catch(() => undefined)
  if (text === undefined)
    return warn(
      'include-missing',
      `Included file ${directive.path} cannot be read; the directive is left out.`,
      'Include a readable file.'
    )
  const selected = selectLines(text, directive.selection, directive.kind === 'rustdoc_include')
  if (selected === undefined) {
    const anchor = 'anchor' in directive.selection ? directive.selection.anchor : ''
    return warn(
      'include-anchor-missing',
      `Included file ${directive.path} has no anchor ${anchor}; the directive is left out.`,
      `Add ANCHOR: ${anchor} and ANCHOR_END: ${anchor} lines to the file, or fix the name.`
    )
  }
  // Nested includes resolve against the included file; their problems are reported at the outer directive.
  const nested: string[] = []
  for (const line of selected.split('\n'))
    nested.push(await expandLine(line, real, place, context, diagnostics, [...chain, real]))
  return nested.join('\n')
}

/** The line of the author's file that line `line` (1-based) of an expanded body comes from. */
export function originalLine(expanded: ExpandedBody, line: number): number {
  return expanded.lineOf?.[line - 1] ?? line
}

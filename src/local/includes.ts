/**
 * mdBook includes, resolved when a folder is scanned: `{{#include path}}`
 * and `{{#rustdoc_include path}}` (with an anchor or a line range, see
 * `include-selection.ts`) are replaced by the part of the file they name,
 * `{{#playground path}}` by the file in a Rust code block, `{{#title …}}`
 * is left out; another `{{#name}}` (Handlebars in an example) is kept. They usually sit inside fenced code blocks
 * and are expanded there too (the directive is the only Markdown mdBook
 * reads inside code).
 *
 * A path resolves against the including file. What it names is read
 * through the trust rule of published files (`src/trust/publishable.ts`):
 * a regular file of the git repository that holds the folder (mdBook books
 * keep their listings beside the book), or of the folder when there is none,
 * never through a symbolic link that leaves it, never under a dot-folder or
 * a dot-file (`.git/config`, `.env`), never one git ignores. A file refused
 * so is an error naming file and line; one that does not exist, or an
 * anchor that is not there, a warning, and the directive is removed.
 * Included files may include others, to `maxIncludeDepth` levels.
 *
 * Each document has a budget (`includeBudget`): at most 1,000 directives
 * and 8 MB read, each directive counting the whole file it names. A tree of
 * files that include each other many times over (ten per file, eight levels
 * deep: 10^8 reads) so stops after 1,000 with an error, in bounded time and
 * memory, and a large listing is fine up to the budget.
 *
 * The expanded text is the body (so a changed listing changes the body's
 * cache key and re-renders the article); `lineOf` maps its lines back to
 * the lines of the file the author wrote, for messages.
 */
import path from 'node:path'
import type {Diagnostic} from './diagnostic.js'
import {codeSpans, findDirectives, selectLines, type IncludeDirective} from './include-selection.js'
import type {PublishRefusal, PublishSource} from '../trust/publishable.js'
import {ReadRefusedError, utf8Text} from '../trust/read.js'
import {mayHoldSnippets} from './snippets.js'
import {expandSnippets, type SnippetReader} from './snippet-expansion.js'

/** The directives that insert a file (`playground` and its old name `playpen` as a Rust code block). */
const includeKinds = new Set(['include', 'rustdoc_include', 'playground', 'playpen'])

/** How deep included files may include others. */
export const maxIncludeDepth = 8

/** What the includes of one document may cost at most: directives met, and bytes of the files they name. */
export const includeBudget = {directives: 1000, bytes: 8 * 1048576} as const

/** Where includes resolve. */
export interface IncludeContext {
  /** Absolute real path of the synced folder (a body's file is relative to it). */
  root: string
  /** Where included files may come from: the repository root, else the folder (see `PublishSource`). */
  source: PublishSource
  /** Absolute folders MkDocs snippets (`--8<--`, `snippets.ts`) resolve against, in order; default the folder. */
  snippetBases?: readonly string[]
}

/** A body with its includes expanded. */
export interface ExpandedBody {
  body: string
  /** For each line of `body` (0-based), the 1-based line of the original body it comes from; absent when nothing was expanded. */
  lineOf?: number[]
  diagnostics: Diagnostic[]
}

/** Expands the includes of `body`, the body of `file` (relative to the folder, with `/`); see the module comment. */
export async function expandIncludes(body: string, file: string, context: IncludeContext): Promise<ExpandedBody> {
  if (!body.includes('{{#') && !mayHoldSnippets(body)) return {body, diagnostics: []}
  const expansion: Expansion = {context, diagnostics: [], left: {...includeBudget}}
  const lines: string[] = []
  const lineOf: number[] = []
  const source = body.split('\n')
  for (let index = 0; index < source.length; index++) {
    const place = {file, line: index + 1}
    const from = path.join(context.root, file)
    const snippets = await expandSnippets(source, index, snippetReader(expansion, place, from), [])
    const expanded = snippets ? snippets.text : await expandLine(source[index]!, from, place, expansion, [])
    for (const line of expanded.split('\n')) {
      lines.push(line)
      lineOf.push(index + 1)
    }
    // A block of snippet names takes its lines: they count at its first.
    if (snippets) index += snippets.lines - 1
  }
  return {body: lines.join('\n'), lineOf, diagnostics: expansion.diagnostics}
}

/** One document's expansion: where files come from, what it found, and what is left of its budget. */
interface Expansion {
  context: IncludeContext
  diagnostics: Diagnostic[]
  /** What may still be spent; `exhausted` once a directive went past it (the rest are left out, unread). */
  left: {directives: number; bytes: number; exhausted?: boolean}
}

/** Where a directive is: the author's file and line (an included file's directives count at the outer one), and column. */
type Place = {file: string; line: number; column?: number}

/** A line with its directives replaced; `chain` holds the files being included around it (cycles, depth). */
async function expandLine(
  line: string,
  from: string,
  place: Place,
  expansion: Expansion,
  chain: string[]
): Promise<string> {
  const directives = findDirectives(line)
  if (directives.length === 0) return line
  let result = ''
  let last = 0
  const spans = codeSpans(line)
  for (const directive of directives) {
    result += line.slice(last, directive.index)
    last = directive.index + directive.length
    const at = {...place, column: directive.index + 1}
    if (directive.escaped) result += line.slice(directive.index + 1, last)
    else if (directive.kind === 'title') continue
    // Another tool's `{{#name}}` (Handlebars' `{{#each}}` in an example) is no mdBook directive: kept as written.
    else if (!includeKinds.has(directive.kind)) result += line.slice(directive.index, last)
    else if (directive.kind === 'playground' || directive.kind === 'playpen') {
      // mdBook writes a runnable file as a Rust code block.
      const code = await replacement(directive, from, at, expansion, chain)
      result += code === '' ? '' : '```rust\n' + code + '\n```'
    } else {
      const found = expansion.diagnostics.length
      const text = await replacement(directive, from, at, expansion, chain)
      const problem = expansion.diagnostics[found]
      // mdBook leaves a directive it cannot expand as written: in a code span, where an author shows the syntax, so does kbsync.
      if (text === '' && problem?.severity === 'warning' && spans.some(([a, b]) => directive.index >= a && last <= b)) {
        result += line.slice(directive.index, last)
        problem.message = problem.message.replace(
          'the directive is left out',
          'the directive is kept as written, in its code span'
        )
      } else result += text
    }
  }
  return result + line.slice(last)
}

/** What a directive stands for: the selected text of its file, or nothing (with a diagnostic when that is a problem). */
async function replacement(
  directive: IncludeDirective,
  from: string,
  place: Place,
  expansion: Expansion,
  chain: string[]
): Promise<string> {
  const target = path.resolve(path.dirname(from), directive.path)
  const read = await readIncluded({path: directive.path, target, kind: 'include'}, place, expansion, chain)
  if (read === undefined) return ''
  const selected = selectLines(read.text, directive.selection, directive.kind === 'rustdoc_include')
  if (selected === undefined) {
    const anchor = 'anchor' in directive.selection ? directive.selection.anchor : ''
    expansion.diagnostics.push({
      severity: 'warning',
      ...place,
      rule: 'include-anchor-missing',
      message: `Included file ${directive.path} has no anchor ${anchor}; the directive is left out.`,
      hint: `Add ANCHOR: ${anchor} and ANCHOR_END: ${anchor} lines to the file, or fix the name.`
    })
    return ''
  }
  // Nested includes resolve against the included file; their problems are reported at the outer directive.
  const nested: string[] = []
  for (const line of selected.split('\n'))
    nested.push(await expandLine(line, read.real, place, expansion, [...chain, read.real]))
  return nested.join('\n')
}

/** What snippets need of a document's expansion at `place`: the shared reading, budget and diagnostics. */
function snippetReader(expansion: Expansion, place: Place, page: string): SnippetReader {
  const {context} = expansion
  return {
    bases: context.snippetBases ?? [context.root],
    root: context.root,
    page,
    source: context.source,
    report: (diagnostic) => void expansion.diagnostics.push({...place, ...diagnostic}),
    read: (included, chain) => readIncluded(included, place, expansion, chain)
  }
}

/** A file an include or snippet names: as written, where it is, and which it is (for messages). */
export interface Included {
  path: string
  target: string
  kind: 'include' | 'snippet'
}

/**
 * Reads the file of an include or snippet through the trust rule, within
 * the document's budget; undefined (reported at `place`) when it may not or
 * cannot be read, or is already being included around it (`chain`).
 */
async function readIncluded(
  included: Included,
  place: Place,
  expansion: Expansion,
  chain: string[]
): Promise<{text: string; real: string} | undefined> {
  const {left, context} = expansion
  const report = (severity: 'error' | 'warning', rule: string, message: string, hint: string) => {
    expansion.diagnostics.push({severity, ...place, rule, message, hint})
    return undefined
  }
  const bytesOver = `more than ${includeBudget.bytes / 1048576} MB of included files`
  if (left.exhausted) return undefined
  if (--left.directives < 0)
    return overBudget(expansion, place, `more than ${includeBudget.directives} include directives`)
  let real: string
  let size: number
  try {
    ;({real, size} = await context.source.check(included.target))
  } catch (error) {
    if (!(error instanceof ReadRefusedError)) throw error
    return refusedInclude(included, error as ReadRefusedError<PublishRefusal>, report)
  }
  if (chain.includes(real) || chain.length >= maxIncludeDepth) {
    return report(
      'warning',
      'include-depth',
      `Included file ${included.path} includes itself, or includes nest deeper than ${maxIncludeDepth} levels; the directive is left out.`,
      'Remove the include cycle.'
    )
  }
  if (size > left.bytes) return overBudget(expansion, place, bytesOver)
  let bytes: Uint8Array
  try {
    bytes = await context.source.read(included.target, left.bytes)
  } catch (error) {
    if (!(error instanceof ReadRefusedError)) throw error
    if (error.reason === 'too-large') return overBudget(expansion, place, bytesOver)
    return refusedInclude(included, error as ReadRefusedError<PublishRefusal>, report)
  }
  left.bytes -= bytes.length
  return {text: utf8Text(bytes), real}
}

/** A directive whose file the trust rule refuses: a warning when it does not exist, else an error (nothing of it is read). */
function refusedInclude(
  directive: Pick<Included, 'path'>,
  error: ReadRefusedError<PublishRefusal>,
  report: (severity: 'error' | 'warning', rule: string, message: string, hint: string) => undefined
): undefined {
  if (error.reason === 'missing')
    return report(
      'warning',
      'include-missing',
      `Included file ${directive.path} does not exist; the directive is left out.`,
      'Fix the path (it is relative to the including file).'
    )
  if (error.reason === 'outside')
    return report(
      'error',
      'include-outside',
      `Included file ${directive.path} lies outside the repository (or folder) being synced: ${error.message}.`,
      'Include only files inside the repository, not through a symbolic link that leaves it.'
    )
  return report(
    'error',
    'include-refused',
    `Included file ${directive.path} may not be published: ${error.message}.`,
    includeHints[error.reason] ?? 'Include a regular, readable file of the repository.'
  )
}

/** How to fix an include the trust rule refuses, by reason. */
const includeHints: Partial<Record<PublishRefusal, string>> = {
  hidden: 'Put what you mean to show in a file of the repository outside dot-folders, and include that.',
  ignored: 'Include a file that git tracks: stop ignoring it in .gitignore, or include another file.',
  'not-a-file': 'Include a regular file (not a folder, FIFO, socket or device).'
}

/** The error of a document whose includes went past the budget; the directive and all after it are left out. */
function overBudget(expansion: Expansion, place: Place, what: string): undefined {
  expansion.left.exhausted = true
  expansion.diagnostics.push({
    severity: 'error',
    ...place,
    rule: 'include-budget',
    message: `The includes of this document reach ${what}, each directive counting the whole file it names, nested ones too; this directive and the rest are left out.`,
    hint: `Include fewer or smaller files; a document may use at most ${includeBudget.directives} include directives and ${includeBudget.bytes / 1048576} MB of included files. Look for files that include each other many times over.`
  })
  return undefined
}

/** The line of the author's file that line `line` (1-based) of an expanded body comes from. */
export function originalLine(expanded: ExpandedBody, line: number): number {
  return expanded.lineOf?.[line - 1] ?? line
}

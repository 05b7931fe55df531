/**
 * MkDocs snippets (`snippets.ts`) expanded in a body, reading through the
 * includes' door (`includes.ts`: the trust rule, the document's budget,
 * cycles and depth), so a snippet is read as an mdBook include is. Names
 * resolve against the base paths in order; the first that holds the file
 * wins.
 */
import path from 'node:path'
import type {Diagnostic} from './diagnostic.js'
import type {Included} from './includes.js'
import {blockName, endsSnippetBlock, parseSnippetName, selectSnippet, snippetLine} from './snippets.js'
import type {PublishSource} from '../trust/publishable.js'
import {ReadRefusedError} from '../trust/read.js'

/** What expanding snippets needs: where names resolve, the reading door, and where problems go (at the outer line). */
export interface SnippetReader {
  /** Absolute folders the names resolve against, in order. */
  bases: readonly string[]
  /** The synced folder (messages name the bases relative to it). */
  root: string
  /** The absolute path of the page the snippets are in. */
  page: string
  source: PublishSource
  report(diagnostic: Pick<Diagnostic, 'severity' | 'rule' | 'message' | 'hint'>): undefined
  read(included: Included, chain: string[]): Promise<{text: string; real: string} | undefined>
}

/**
 * The snippet line (or block of names) at `lines[index]` expanded, and how
 * many lines it took; undefined when the line is no snippet. Included text
 * is read for snippets again (`chain`: the files around it).
 */
export async function expandSnippets(
  lines: readonly string[],
  index: number,
  reader: SnippetReader,
  chain: string[]
): Promise<{text: string; lines: number} | undefined> {
  const found = snippetLine(lines[index]!)
  if (!found) return undefined
  if (found.kind === 'escaped') return {text: found.text, lines: 1}
  const names: string[] = []
  let taken = 1
  if (found.kind === 'single') names.push(found.name)
  else {
    for (; index + taken < lines.length && !endsSnippetBlock(lines[index + taken]!); taken++) {
      const name = blockName(lines[index + taken]!)
      if (name !== undefined) names.push(name)
    }
    // An unclosed block is no block (pymdownx reads it as text).
    if (index + taken >= lines.length) return undefined
    taken++
  }
  const parts: string[] = []
  for (const name of names) {
    const text = await snippetText(name, reader, chain)
    if (text !== undefined) parts.push(indented(text, found.indent))
  }
  return {text: parts.join('\n'), lines: taken}
}

/** The text of the snippet `name`, its own snippets expanded, or undefined when it cannot be read (reported). */
async function snippetText(name: string, reader: SnippetReader, chain: string[]): Promise<string | undefined> {
  const {path: file, selection} = parseSnippetName(name)
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(file)) {
    reader.report({
      severity: 'warning',
      rule: 'snippet-remote',
      message: `Snippet ${file} is a URL; kbsync reads no network snippets, so it is left out.`,
      hint: 'Keep the snippet in the repository and name its path.'
    })
    return undefined
  }
  const {bases} = reader
  const target = await firstPresent(
    bases.map((base) => path.resolve(base, file)),
    reader.source
  )
  if (target === undefined) {
    reader.report({
      severity: 'warning',
      rule: 'include-missing',
      message: `Snippet ${file} does not exist in the snippets' base path (${bases.map((base) => path.relative(reader.root, base) || '.').join(', ')}); it is left out.`,
      hint: 'Fix the name: it is relative to the base_path of pymdownx.snippets in mkdocs.yml (the folder of mkdocs.yml unless set).'
    })
    return undefined
  }
  // An SVG drawing is shown where it is included: as an image of the page (its markup would be read as HTML).
  if (/\.svg$/i.test(file)) {
    const relative = path.relative(path.dirname(reader.page), target).split(path.sep).join('/')
    return `<img src="${encodeURI(relative)}" alt="">`
  }
  const read = await reader.read({path: file, target, kind: 'snippet'}, chain)
  if (read === undefined) return undefined
  const selected = selectSnippet(read.text, selection)
  if (selected === undefined) {
    const section = 'section' in selection ? selection.section : ''
    return void reader.report({
      severity: 'warning',
      rule: 'include-anchor-missing',
      message: `Snippet ${file} has no section ${section}; it is left out.`,
      hint: `Add \`--8<-- [start:${section}]\` and \`--8<-- [end:${section}]\` lines to the file, or fix the name.`
    })
  }
  const lines = selected.split('\n')
  const nested: string[] = []
  for (let index = 0; index < lines.length; index++) {
    const inner = await expandSnippets(lines, index, reader, [...chain, read.real])
    nested.push(inner ? inner.text : lines[index]!)
    if (inner) index += inner.lines - 1
  }
  return nested.join('\n')
}

/** The first of `targets` that exists (a refused one counts: reading it reports why), or undefined. */
async function firstPresent(targets: readonly string[], source: PublishSource): Promise<string | undefined> {
  for (const target of targets) {
    try {
      await source.check(target)
      return target
    } catch (error) {
      if (!(error instanceof ReadRefusedError)) throw error
      if (error.reason !== 'missing') return target
    }
  }
  return undefined
}

/** `text` with `indent` before each non-empty line (a snippet takes the indentation of its line). */
function indented(text: string, indent: string): string {
  return indent === '' ? text : text.replace(/^(?=.)/gm, indent)
}

/**
 * pymdownx.snippets (MkDocs), resolved when a folder is scanned, beside
 * mdBook's includes (`includes.ts`, whose reading, trust rule and budget
 * they share): a line `--8<-- "file.md"` is replaced by the file, indented
 * as the line is; a block of file names between two `--8<--` lines by each
 * file (a name starting with `;` is commented out); `;--8<-- "file"` is
 * the line written as text (one `;` goes). A name may select lines
 * (`file.md:3:8`, `file.md:3`, `file.md::8`) or a section marked in the file
 * by `--8<-- [start:name]` and `--8<-- [end:name]` lines (marker lines are
 * never included). Like pymdownx, snippets are read in code blocks too,
 * and included files may hold snippets. Names resolve against the
 * extension's `base_path` folders (`mkdocs-site.ts`), not the page.
 */

/** What a line of a body is to snippets. */
export type SnippetLine =
  {kind: 'single'; indent: string; name: string} | {kind: 'block'; indent: string} | {kind: 'escaped'; text: string}

/** The lines of a file a snippet's name selects. */
export type SnippetSelection = {whole: true} | {from?: number; to?: number} | {section: string}

// The marker: dashes, `8<`, dashes; a quoted name after it, nothing after that.
const single = /^([ \t]*)(;*)(-+8<-+[ \t]+)("(?:\\"|[^"\n\r])+"|'(?:\\'|[^'\n\r])+')[ \t]*\r?$/
const blockMarker = /^([ \t]*)-+8<-+[ \t]*\r?$/
// What follows `8<` on a section's marker line (the line may start with a comment sign: `# --8<-- [start:name]`).
const sectionTail = /^-+[ \t]+\[(start|end):([\w-]+)\][ \t]*\r?$/

/** Cheap test: whether a body may hold a snippet. */
export function mayHoldSnippets(body: string): boolean {
  return body.includes('8<-')
}

/** What `line` is to snippets, or undefined for an ordinary line. */
export function snippetLine(line: string): SnippetLine | undefined {
  if (!line.includes('8<-')) return undefined
  const match = single.exec(line)
  if (match) {
    const [, indent, escape, marker, quoted] = match
    if (escape) return {kind: 'escaped', text: indent! + escape.slice(1) + marker + quoted}
    return {kind: 'single', indent: indent!, name: quoted!.slice(1, -1).replace(/\\(["'])/g, '$1')}
  }
  const block = blockMarker.exec(line)
  return block ? {kind: 'block', indent: block[1]!} : undefined
}

/** Whether `line` ends a block of snippet names. */
export function endsSnippetBlock(line: string): boolean {
  return blockMarker.test(line)
}

/** A name of a block: the file it names, or undefined for a blank or commented-out line. */
export function blockName(line: string): string | undefined {
  const name = line.trim()
  return name === '' || name.startsWith(';') ? undefined : name
}

/** `file.md:3:8`, `file.md:3`, `file.md::8`, `file.md:section` -> the path and the selection. */
export function parseSnippetName(name: string): {path: string; selection: SnippetSelection} {
  // No path is this long: the patterns below need not read a hostile line.
  if (name.length > 1024) return {path: name, selection: {whole: true}}
  const lines = /^(.*?)(?::(\d*))(?::(\d*))?$/.exec(name)
  if (lines && (lines[2] || lines[3])) {
    const from = lines[2] ? Number(lines[2]) : undefined
    const to = lines[3] === undefined ? undefined : lines[3] ? Number(lines[3]) : undefined
    return {path: lines[1]!, selection: {...(from ? {from} : {}), ...(to ? {to} : {})}}
  }
  const section = /^(.*?):([A-Za-z][\w-]*)$/.exec(name)
  // A Windows drive (`C:`) is no section: a one-letter path before the colon.
  if (section && section[1]!.length > 1) return {path: section[1]!, selection: {section: section[2]!}}
  return {path: name, selection: {whole: true}}
}

/** The lines of `text` a selection takes, section marker lines left out (undefined when the section is not there). */
export function selectSnippet(text: string, selection: SnippetSelection): string | undefined {
  let lines = text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n')
  if ('section' in selection) {
    const marks = lines.map(sectionMark)
    const start = marks.findIndex((mark) => mark?.[1] === 'start' && mark[2] === selection.section)
    if (start === -1) return undefined
    const end = marks.findIndex((mark, index) => index > start && mark?.[1] === 'end' && mark[2] === selection.section)
    lines = lines.slice(start + 1, end === -1 ? undefined : end)
  } else if (!('whole' in selection)) {
    lines = lines.slice((selection.from ?? 1) - 1, selection.to)
  }
  return lines.filter((line) => !sectionMark(line)).join('\n')
}

/** The `[start:name]` / `[end:name]` of a section's marker line (`start`/`end` and the name), or undefined. */
function sectionMark(line: string): RegExpExecArray | undefined {
  const at = line.indexOf('8<-')
  if (at < 1 || line[at - 1] !== '-') return undefined
  return sectionTail.exec(line.slice(at + 2)) ?? undefined
}

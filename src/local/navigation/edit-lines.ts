/**
 * Edits an outline written one entry per line, nested by indentation
 * (mdBook's `SUMMARY.md`, MkDocs' block-style `nav`): entries added,
 * removed, moved (with their sub-entries) and retitled, every other line
 * kept byte for byte. Pure: text in, text out. Each format says what an
 * entry line is and how it is written (`edit-summary.ts`,
 * `edit-mkdocs-nav.ts`). Lines are the 1-based lines of the original text.
 */

/** An entry to write: its title, the document it names (none: a section), and its sub-entries. */
export interface NewEntry {
  title: string
  target?: string
  children: NewEntry[]
}

/** Where an entry goes: after or before an entry (with their sub-entries), as the last sub-entry of one, or at the end. */
export type Anchor = {after: number} | {before: number} | {childOf: number} | {end: true}

/** One change to an outline. */
export type OutlineEdit =
  | {kind: 'insert'; anchor: Anchor; entry: NewEntry}
  | {kind: 'remove'; line: number}
  | {kind: 'retitle'; line: number; title: string}
  | {kind: 'move'; line: number; anchor: Anchor; target?: string}

/** What the line editor needs to know of a format. */
export interface LineFormat {
  /** Whether the line (without its line ending) is an entry. */
  isEntry(line: string): boolean
  /** The 0-based index of the last line of the entry at `index` with its sub-entries. */
  blockEnd(lines: readonly string[], index: number): number
  /** The 0-based index after which an entry goes at the end of the outline, and an entry line there to copy the style of. */
  endOf(lines: readonly string[]): {after: number; like: number} | undefined
  /** An entry line with `indent`, in the style of `like` (an entry line of the same outline). */
  entryLine(indent: string, like: string, entry: NewEntry): string
  /** The line with its title replaced. */
  retitle(line: string, title: string): string
  /** The line naming `target` instead. */
  retarget(line: string, target: string): string
  /** The indentation one level deeper than `indent`, as the outline nests (its first nested entry shows it). */
  deeper(lines: readonly string[], indent: string): string
}

/** The leading spaces and tabs of a line. */
export function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)![0]
}

/** Width of an indentation (a tab counts four). */
export function widthOf(indent: string): number {
  return indent.replace(/\t/g, '    ').length
}

/**
 * The indentation one level deeper than `indent`, as the outline `lines`
 * nests: the first entry (`entry` matches it) indented beyond the entry
 * before it shows the step; `fallback` when no entry nests.
 */
export function nestedIndent(lines: readonly string[], indent: string, entry: RegExp, fallback: string): string {
  for (let i = 1; i < lines.length; i++) {
    const [outer, inner] = [lines[i - 1]!, lines[i]!]
    if (entry.test(outer) && entry.test(inner) && widthOf(indentOf(inner)) > widthOf(indentOf(outer)))
      return indent + ' '.repeat(widthOf(indentOf(inner)) - widthOf(indentOf(outer)))
  }
  return indent + fallback
}

/** An insertion before a 0-based line index: the lines to write. */
interface Insertion {
  before: number
  lines: string[]
}

/** Applies `edits` to `text` (a format's outline); an edit naming a line that is no entry is left out. */
export function editOutline(text: string, edits: readonly OutlineEdit[], format: LineFormat): string {
  const crlf = text.includes('\r\n')
  const lines = text.split('\n').map((line) => (crlf ? line.replace(/\r$/, '') : line))
  const removed = new Set<number>()
  const replaced = new Map<number, string>()
  const insertions: Insertion[] = []
  const entryAt = (line: number): number | undefined =>
    line >= 1 && line <= lines.length && format.isEntry(lines[line - 1]!) ? line - 1 : undefined
  const removeBlock = (index: number) => {
    for (let i = index; i <= format.blockEnd(lines, index); i++) removed.add(i)
  }
  for (const edit of edits) {
    if (edit.kind === 'insert') {
      const place = placeOf(lines, edit.anchor, format, entryAt)
      if (place)
        insertions.push({before: place.before, lines: entryLines(place.indent, place.like, edit.entry, lines, format)})
      continue
    }
    const index = entryAt(edit.line)
    if (index === undefined) continue
    if (edit.kind === 'retitle') replaced.set(index, format.retitle(replaced.get(index) ?? lines[index]!, edit.title))
    else if (edit.kind === 'remove') removeBlock(index)
    else {
      const place = placeOf(lines, edit.anchor, format, entryAt)
      if (!place) continue
      const block = movedBlock(lines, index, place.indent, format, replaced)
      if (edit.target !== undefined) block[0] = format.retarget(block[0]!, edit.target)
      removeBlock(index)
      insertions.push({before: place.before, lines: block})
    }
  }
  const out: string[] = []
  for (let i = 0; i <= lines.length; i++) {
    for (const insertion of insertions) if (insertion.before === i) out.push(...insertion.lines)
    if (i < lines.length && !removed.has(i)) out.push(replaced.get(i) ?? lines[i]!)
  }
  return out.join(crlf ? '\r\n' : '\n')
}

/** Where an anchor puts an entry: before which line, with what indentation, copying which entry line's style. */
function placeOf(
  lines: readonly string[],
  anchor: Anchor,
  format: LineFormat,
  entryAt: (line: number) => number | undefined
): {before: number; indent: string; like: string} | undefined {
  if ('end' in anchor) {
    const end = format.endOf(lines)
    if (!end) return undefined
    return {before: end.after + 1, indent: indentOf(lines[end.like]!), like: lines[end.like]!}
  }
  const line = 'after' in anchor ? anchor.after : 'before' in anchor ? anchor.before : anchor.childOf
  const index = entryAt(line)
  if (index === undefined) return undefined
  const own = lines[index]!
  if ('before' in anchor) return {before: index, indent: indentOf(own), like: own}
  const end = lastFilled(lines, index, format.blockEnd(lines, index))
  if ('after' in anchor) return {before: end + 1, indent: indentOf(own), like: own}
  const child = lines.slice(index + 1, end + 1).find((text) => format.isEntry(text))
  return {
    before: end + 1,
    indent: child !== undefined ? indentOf(child) : format.deeper(lines, indentOf(own)),
    like: child ?? own
  }
}

/** The last line of `start..end` that is not blank (an entry's block ends at its last written line). */
function lastFilled(lines: readonly string[], start: number, end: number): number {
  let last = end
  while (last > start && lines[last]!.trim() === '') last--
  return last
}

/** The lines of a new entry and its sub-entries. */
function entryLines(
  indent: string,
  like: string,
  entry: NewEntry,
  lines: readonly string[],
  format: LineFormat
): string[] {
  const out: string[] = []
  const stack: Array<{entry: NewEntry; indent: string}> = [{entry, indent}]
  while (stack.length > 0) {
    const next = stack.pop()!
    out.push(format.entryLine(next.indent, like, next.entry))
    const inner = format.deeper(lines, next.indent)
    for (const child of [...next.entry.children].reverse()) stack.push({entry: child, indent: inner})
  }
  return out
}

/** The lines of the entry at `index` with its sub-entries, re-indented to `indent` (blank lines at its end left behind). */
function movedBlock(
  lines: readonly string[],
  index: number,
  indent: string,
  format: LineFormat,
  replaced: ReadonlyMap<number, string>
): string[] {
  const end = lastFilled(lines, index, format.blockEnd(lines, index))
  const from = widthOf(indentOf(lines[index]!))
  const to = widthOf(indent)
  const block: string[] = []
  for (let i = index; i <= end; i++) {
    const line = replaced.get(i) ?? lines[i]!
    if (line.trim() === '') {
      block.push(line)
      continue
    }
    const width = Math.max(0, widthOf(indentOf(line)) - from + to)
    block.push(' '.repeat(width) + line.slice(indentOf(line).length))
  }
  return block
}

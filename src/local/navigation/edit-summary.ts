/**
 * Edits mdBook's `SUMMARY.md` (`mdbook-summary.ts` reads it): chapter
 * lines `- [Title](path.md)` added with the list's indentation and bullet,
 * removed with their sub-chapters, moved, retitled; every other line byte
 * for byte. Pure: text in, text out.
 */
import {
  editOutline,
  indentOf,
  nestedIndent,
  widthOf,
  type LineFormat,
  type NewEntry,
  type OutlineEdit
} from './edit-lines.js'

const chapter = /^([ \t]*(?:[-*+]|\d+[.)])[ \t]+|[ \t]*)\[((?:\\.|[^\]\\])*)\]\(([^()]*)\)(.*)$/
const part = /^ {0,3}#{1,6}[ \t]/
const separator = /^ {0,3}(?:-{3,}|\*{3,}|_{3,})[ \t]*$/

/** A title as a link's text: the characters Markdown would read as marks are escaped. */
function linkText(title: string): string {
  return title.replace(/([\\[\]*_`<])/g, '\\$1')
}

/** A path as a link's destination: wrapped in `<>` when it holds spaces or parentheses. */
function destination(target: string): string {
  return /[\s()<>]/.test(target) ? `<${target}>` : target
}

/** The last line of the entry (or part) at `index` with what it holds, blank lines at its end left out. */
function blockEnd(lines: readonly string[], index: number): number {
  const own = lines[index]!
  const heading = part.test(own)
  const width = widthOf(indentOf(own))
  let last = index
  for (let i = index + 1; i < lines.length; i++) {
    const line = lines[i]!
    if (line.trim() === '') continue
    if (part.test(line) || separator.test(line)) break
    // A part holds the chapters up to the next part; a chapter its more indented sub-chapters.
    if (!heading && (!chapter.test(line) || widthOf(indentOf(line)) <= width)) break
    if (heading && !chapter.test(line)) break
    last = i
  }
  return last
}

const summaryFormat: LineFormat = {
  isEntry: (line) => chapter.test(line) || part.test(line),
  blockEnd,
  endOf(lines) {
    let last: number | undefined
    lines.forEach((line, index) => {
      if (chapter.test(line)) last = index
    })
    return last === undefined ? undefined : {after: last, like: last}
  },
  entryLine(indent, like, entry: NewEntry) {
    const marker = chapter.exec(like)?.[1]?.trim() || '-'
    const bullet = /^\d+[.)]$/.test(marker) ? '-' : marker
    return `${indent}${bullet} [${linkText(entry.title)}](${entry.target !== undefined ? destination(entry.target) : ''})`
  },
  retitle(line, title) {
    const match = chapter.exec(line)
    if (match) return `${match[1]}[${linkText(title)}](${match[3]})${match[4]}`
    return line.replace(/^( {0,3}#{1,6}[ \t]+).*?([ \t#]*)$/, `$1${title}$2`)
  },
  retarget(line, target) {
    const match = chapter.exec(line)
    return match ? `${match[1]}[${match[2]}](${destination(target)})${match[4]}` : line
  },
  deeper(lines, indent) {
    // The outline's own step: the first sub-chapter's indentation beyond its parent's (four spaces if none nests).
    return nestedIndent(lines, indent, chapter, '    ')
  }
}

/** `SUMMARY.md` with `edits` applied (lines are the original text's, 1-based). */
export function editSummary(text: string, edits: readonly OutlineEdit[]): string {
  return editOutline(text, edits, summaryFormat)
}

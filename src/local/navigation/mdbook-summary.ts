/**
 * mdBook's `SUMMARY.md` (GitBook writes the same form): an optional title,
 * prefix chapters (`[Title](file.md)` lines), numbered chapters (`- [Title](file.md)`,
 * nested by indentation), part titles (`# Part`), separators (`---`),
 * suffix chapters and draft chapters (`[Title]()`). Pure: text in, outline
 * out. A part title becomes a section entry over the chapters that follow
 * it, up to the next part or separator.
 */
import {maxOutlineDepth} from '../../trust/index.js'
import type {Diagnostic} from '../diagnostic.js'
import {plainTitle} from '../titles.js'
import {tooDeep} from './depth.js'
import type {NavEntry, ParsedOutline} from './types.js'

/** The name mdBook and GitBook give the navigation file. */
export const summaryFileName = 'SUMMARY.md'

const heading = /^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/
const separator = /^ {0,3}(?:-{3,}|\*{3,}|_{3,})[ \t]*$/
const listItem = /^([ \t]*)(?:[-*+]|\d+[.)])[ \t]+(.*)$/
// The chapter's link, then perhaps a remark (`[FFI]() (?)`, seen in real summaries).
const chapterLink = /^\[(.*?)\]\(([^()]*)\)(.*)$/
const comment = /^[ \t]*<!--/

/**
 * Whether `text` reads as a navigation rather than a document: its first
 * line that is no heading (the title, a part) nor separator is a chapter
 * link (plain or as a list item). A `SUMMARY.md` of prose is an ordinary
 * article.
 */
export function looksLikeSummary(text: string): boolean {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .filter((line) => line.trim() !== '' && !comment.test(line))
  const first = lines.find((line) => !heading.test(line) && !separator.test(line))
  if (first === undefined) return false
  const item = listItem.exec(first)
  return chapterLink.test((item ? item[2]! : first).trim())
}

/** Parses the `SUMMARY.md` at `file` (for messages). */
export function parseSummary(text: string, file: string): ParsedOutline {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  const problems: Diagnostic[] = []
  const entries: NavEntry[] = []
  // The list the next chapter goes into: the top level, or the current part's.
  let top = entries
  // Open list items by indentation, innermost last.
  let stack: Array<{indent: number; entry: NavEntry}> = []
  let seenContent = false
  let inComment = false
  lines.forEach((raw, index) => {
    const line = index + 1
    if (inComment || comment.test(raw)) {
      inComment = !raw.includes('-->')
      return
    }
    if (raw.trim() === '') return
    const title = heading.exec(raw)
    if (title) {
      // The first heading before any chapter is the summary's own title; later ones open a part.
      if (seenContent) {
        const part: NavEntry = {title: title[1]!.trim(), line, children: []}
        entries.push(part)
        top = part.children
        stack = []
      }
      seenContent = true
      return
    }
    seenContent = true
    if (separator.test(raw)) {
      top = entries
      stack = []
      return
    }
    const item = listItem.exec(raw)
    const text = (item ? item[2]! : raw).trim()
    const link = chapterLink.exec(text)
    if (!link) {
      problems.push({
        severity: 'error',
        file,
        line,
        message: `${summaryFileName} line ${line} is not a chapter: mdBook expects \`- [Title](file.md)\` (or \`[Title](file.md)\` for a prefix or suffix chapter), a \`# Part\` title or \`---\``,
        hint: "Write the line as a link to the chapter's file, e.g. `- [Installation](installation.md)`, or remove it",
        rule: 'navigation-summary'
      })
      return
    }
    if (link[3]!.trim() !== '') {
      problems.push({
        severity: 'warning',
        file,
        line,
        message: `${summaryFileName} line ${line}: the text after the chapter link (\`${link[3]!.trim()}\`) is ignored`,
        hint: 'Put remarks in an HTML comment (`<!-- ... -->`) or in the chapter itself',
        rule: 'navigation-summary'
      })
    }
    const entry = entryOf(link[1]!, link[2]!, line)
    if (!item) {
      // A prefix or suffix chapter: never nested.
      top.push(entry)
      stack = []
      return
    }
    const indent = item[1]!.replace(/\t/g, '    ').length
    while (stack.length > 0 && stack.at(-1)!.indent >= indent) stack.pop()
    if (stack.length >= maxOutlineDepth) {
      // The outline's readers walk it level by level: it is held to the limit, with one error (at the first line past it).
      if (!problems.some((problem) => problem.rule === 'navigation-depth'))
        problems.push(tooDeep(file, line, summaryFileName))
      stack.pop()
    }
    const parent = stack.at(-1)
    ;(parent ? parent.entry.children : top).push(entry)
    stack.push({indent, entry})
  })
  return {entries, problems}
}

/** An entry from a link's text and target (`<a b.md>`, `a%20b.md` and `./a.md` all name `a b.md`; an empty target is a draft). */
function entryOf(text: string, target: string, line: number): NavEntry {
  const entry: NavEntry = {title: plainTitle(text), line, children: []}
  let file = target
    .trim()
    .replace(/^<(.*)>$/, '$1')
    .replace(/#.*$/, '')
  try {
    file = decodeURIComponent(file)
  } catch {
    // Keep it as written.
  }
  file = file.replace(/^\.\//, '')
  if (file !== '') entry.file = file
  return entry
}

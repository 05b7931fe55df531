/**
 * Splits a document into front matter, title heading and body. The body
 * keeps its line numbers (front matter and title heading are blanked, not
 * removed), so every later message points at the right line of the file.
 */
import type {Diagnostic} from './diagnostic.js'
import {readFrontMatter, type FrontMatter, type FrontMatterMemo} from './front-matter.js'
import {isBlank, TextLines} from './text-lines.js'

/** The heading a document opens with: the title candidate. */
export interface TitleHeading {
  /** Its text, without the `#` marks or a trailing `{#id}` attribute block. */
  title: string
  /** 1-based line of the heading. */
  line: number
  /** Lines it takes: 1 for `# Title`, 2 for a setext heading (`Title` over `===`). */
  lineCount: number
  /** Its level (1 for `#` and `===`). */
  level: number
}

/** A document read as far as its title: what the structure of a tree needs before any body is converted. */
export interface DocumentHead {
  frontMatter: FrontMatter
  /** The heading of any level that is the first content after the front matter, when there is one. */
  heading?: TitleHeading
  /**
   * The file's text, CRLF normalised, front matter still in it (`bodyOf`
   * blanks it): a scan holds the head of every document until its bodies
   * are cut, and an array of lines would cost more than the text itself.
   */
  text: string
}

const atxHeading = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/
const setextUnderline = /^ {0,3}(?:=+|-+)[ \t]*$/
// A line that opens something else than a paragraph cannot be a setext heading's text.
const notParagraph = /^ {0,3}(?:[-*+>|<`~{]|\d+[.)]|#|import\b|export\b)/
// `## Title {#custom-id}` (Docusaurus, MkDocs, kramdown): the attribute block is no part of the title.
const attributeBlock = /[ \t]*\{[:#.][^}]*\}[ \t]*$/
// MDX files open with import and export statements: code, not content.
const mdxStatement = /^(?:import|export)\s/
const statementEnd = /from\s*['"][^'"]*['"]|^import\s*['"]|[;}\])]\s*$/

/**
 * Reads the front matter of `text` (the file at `file`; problems go to
 * `diagnostics`) and finds the heading the document opens with: of any
 * level, ATX or setext, when it is the first content after the front
 * matter (HTML comments and, in `.mdx` files, import/export lines are no
 * content).
 */
export function readDocumentHead(
  text: string,
  file: string,
  diagnostics: Diagnostic[],
  memo?: FrontMatterMemo
): DocumentHead {
  const normal = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text
  const lines = new TextLines(normal)
  const frontMatter = readFrontMatter(normal, file, diagnostics, memo, lines)
  const heading = openingHeading(lines, frontMatter.lineCount, /\.mdx$/i.test(file))
  return {frontMatter, ...(heading ? {heading} : {}), text: normal}
}

/**
 * The body of a document read by `readDocumentHead`; with `dropHeading`, its
 * opening heading blanked. Only the lines blanked are looked at: the rest of
 * the text is taken as it is (the text itself when nothing is blanked).
 */
export function bodyOf(head: DocumentHead, dropHeading: boolean): {body: string; empty: boolean} {
  const heading = dropHeading ? head.heading : undefined
  const blankFrom = heading ? heading.line - 1 : 0
  const blankTo = heading ? blankFrom + heading.lineCount : 0
  const end = Math.max(head.frontMatter.lineCount, blankTo)
  const lines = new TextLines(head.text)
  // A text with no line after the blanked ones keeps no line feed after them: lines joined as written.
  if (end > 0 && !lines.has(end))
    return joinedBody(head.text.split('\n'), head.frontMatter.lineCount, blankFrom, blankTo)
  let prefix = ''
  for (let index = 0; index < end; index++) {
    const blank = index < head.frontMatter.lineCount || (index >= blankFrom && index < blankTo)
    prefix += (blank ? '' : lines.line(index)) + '\n'
  }
  const body = end === 0 ? head.text : prefix + head.text.slice(lines.start(end))
  return {body, empty: isBlank(body)}
}

/** `lines` joined, those before `frontMatterLines` and from `blankFrom` to `blankTo` blanked. */
function joinedBody(lines: string[], frontMatterLines: number, blankFrom: number, blankTo: number) {
  for (let index = 0; index < frontMatterLines; index++) lines[index] = ''
  for (let index = blankFrom; index < blankTo; index++) lines[index] = ''
  const body = lines.join('\n')
  return {body, empty: isBlank(body)}
}

/**
 * Whether `heading` is a `# Title` line for the front matter title `title`,
 * which then leaves the body. Only that form: `pull` writes a body that opens
 * with its title as a setext heading (or a deeper one) to keep it there, and
 * a push right after a pull must read the body back unchanged.
 */
export function isTitleLine(heading: TitleHeading, title: string): boolean {
  return heading.title === title && heading.level === 1 && heading.lineCount === 1
}

/** The heading at the first content line from `start`, if that line is one. */
function openingHeading(lines: TextLines, start: number, mdx: boolean): TitleHeading | undefined {
  let index = start
  for (;;) {
    while (lines.has(index) && isBlank(lines.line(index))) index++
    if (!lines.has(index)) return undefined
    const line = lines.line(index)
    if (/^ {0,3}<!--/.test(line)) {
      while (lines.has(index) && !lines.line(index).includes('-->')) index++
      index++
    } else if (mdx && mdxStatement.test(line)) {
      index = endOfStatement(lines, index) + 1
    } else break
  }
  const line = lines.line(index)
  const atx = atxHeading.exec(line)
  if (atx) {
    const title = cleanTitle(atx[2]!)
    return title === '' ? undefined : {title, line: index + 1, lineCount: 1, level: atx[1]!.length}
  }
  const next = lines.has(index + 1) ? lines.line(index + 1) : undefined
  if (next !== undefined && setextUnderline.test(next) && !notParagraph.test(line)) {
    const title = cleanTitle(line)
    return title === '' ? undefined : {title, line: index + 1, lineCount: 2, level: next.trim().startsWith('=') ? 1 : 2}
  }
  return undefined
}

/** The last line of the import or export statement that starts at `index` (a blank line ends it at the latest). */
function endOfStatement(lines: TextLines, index: number): number {
  let end = index
  // `import {a,\n  b\n} from 'x'`: runs until the line naming the module, or one that closes a brace.
  while (lines.has(end + 1) && !statementEnd.test(lines.line(end)) && !isBlank(lines.line(end + 1))) end++
  return end
}

function cleanTitle(text: string): string {
  return text.replace(attributeBlock, '').trim()
}

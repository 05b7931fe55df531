/**
 * Splits a document into front matter, title and body. The body keeps its
 * line numbers (front matter and title heading are blanked, not removed), so
 * every later message points at the right line of the file.
 */
import type {Diagnostic} from './diagnostic.js'
import {readFrontMatter, type FrontMatter} from './front-matter.js'

/** One document, taken apart. */
export interface DocumentParts {
  frontMatter: FrontMatter
  /** Title from the first `# ` heading, when the body starts with one. */
  headingTitle?: string
  /** 1-based line of that heading. */
  headingLine?: number
  /** The body text, same line count as the file; empty lines where front matter and title were. */
  body: string
  /** Whether the body has any content. */
  empty: boolean
}

const atxTitle = /^ {0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/

/**
 * Takes a file apart. With `takeHeading`, a first-line `# ` heading becomes
 * the title candidate and leaves the body (the platform shows the title
 * itself; repeating it would show it twice).
 */
export function splitDocument(text: string, file: string, diagnostics: Diagnostic[], takeHeading: boolean, explicitTitle?: (fm: FrontMatter) => string | undefined): DocumentParts {
  const normal = text.replace(/\r\n?/g, '\n')
  const frontMatter = readFrontMatter(normal, file, diagnostics)
  const lines = normal.split('\n')
  for (let index = 0; index < frontMatter.lineCount; index++) lines[index] = ''
  const parts: DocumentParts = {frontMatter, body: '', empty: true}
  const first = lines.findIndex((line, index) => index >= frontMatter.lineCount && line.trim() !== '')
  if (first !== -1 && takeHeading) {
    const match = atxTitle.exec(lines[first]!)
    const wanted = explicitTitle?.(frontMatter)
    if (match && match[1]!.trim() !== '' && (wanted === undefined || wanted === match[1]!.trim())) {
      parts.headingTitle = match[1]!.trim()
      parts.headingLine = first + 1
      lines[first] = ''
    }
  }
  parts.body = lines.join('\n')
  parts.empty = parts.body.trim() === ''
  return parts
}

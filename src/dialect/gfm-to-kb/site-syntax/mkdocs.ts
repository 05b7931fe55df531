/**
 * MkDocs admonitions (python-markdown `admonition`, `pymdownx.details`):
 * `!!! note "Title"`, `!!! note ""` (no title), `!!! note` (the type is the
 * title), `???` and `???+` (expanding blocks), the content indented by four
 * spaces below. CommonMark would read that content as indented code, so the
 * marker line becomes the dialect's opening tag, the content is moved four
 * spaces left (nested admonitions too, one level per block), and the
 * closing tag takes the blank line after the content: every line keeps its
 * number. Code blocks are left alone.
 */
import {admonitionColor, neutralColor} from '../alerts.js'
import {capitalise, closeTag, FenceTracker, isBlank, openTag, type BlockTitle, type SiteSource} from './lines.js'

// python-markdown's pattern: `!!!`, a type and modifiers (`inline end`), an optional quoted title.
const marker = /^([ \t]*)(!!!|\?\?\?\+?)[ \t]?([\w-]+)((?:[ \t]+[\w-]+)*)(?:[ \t]+"(.*?)")?[ \t\r]*$/

const closingTags = /^[ \t]*(?:<\/div>|<\/details>)+$/

interface Open {
  /** Column of the marker in the author's lines: the content is indented four more. */
  indent: number
  /** Column of the marker once the blocks around it moved it left: where its closing tag goes. */
  column: number
  kind: BlockTitle['kind']
  /** The 0-based line of the content's last non-blank line. */
  last: number
}

/** Rewrites the MkDocs admonitions of `site` (see the module comment). */
export function rewriteMkDocsAdmonitions(site: SiteSource): void {
  const {lines} = site
  const fences = new FenceTracker()
  const stack: Open[] = []
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    if (isBlank(line)) continue
    const indent = indentOf(line)
    while (stack.length > 0 && indent < stack[stack.length - 1]!.indent + 4) {
      closeBlock(site, stack.pop()!, index)
      fences.reset()
    }
    if (stack.length > 0) {
      // Closing a block may have written its tag into this line: dedent what is there now.
      lines[index] = dedent(lines[index]!, 4 * stack.length)
      for (const open of stack) open.last = index
    }
    if (fences.isCode(lines[index]!.trimStart())) continue
    const match = marker.exec(lines[index]!)
    if (!match) continue
    const [, lead, sign, type, , title] = match
    const kind = sign === '!!!' ? 'hintBlock' : 'details'
    let color = admonitionColor(type!)
    if (!color) {
      color = neutralColor
      site.messages.push({
        line: index + 1,
        column: lead!.length + 1,
        ruleId: 'kb-admonition-unknown',
        reason: `Unknown admonition type \`${type}\`; written as a ${neutralColor} hint block. Use note, tip, info, warning, danger or another MkDocs type for a coloured one.`
      })
    }
    lines[index] = lead + openTag(kind, color)
    // No title: the type, capitalised; `""`: none (an expanding block still needs a summary).
    const shown = title === undefined ? capitalise(type!) : title
    site.titles.set(index + 1, shown || kind === 'details' ? {kind, title: shown || capitalise(type!)} : {kind})
    stack.push({indent, column: lead!.length, kind, last: index})
  }
  for (let open = stack.pop(); open; open = stack.pop()) closeBlock(site, open, lines.length)
}

/**
 * Writes the closing tag of `open`, whose content ended before line
 * `next`: on the blank line after the content, else at the end of the file,
 * else before the closing tag of a container around it that follows at
 * once, else (a line not indented right after the content, which
 * python-markdown also ends the block at) after its last line.
 */
function closeBlock(site: SiteSource, open: Open, next: number): void {
  const {lines} = site
  const tag = ' '.repeat(open.column) + closeTag(open.kind)
  const blank = open.last + 1
  const after = blank < next ? lines[blank] : undefined
  if (after !== undefined && isBlank(after)) lines[blank] = tag
  // The blank line already closes a block inside this one: both close there.
  else if (after !== undefined && closingTags.test(after)) lines[blank] = after + closeTag(open.kind)
  else if (next >= lines.length) lines.push(tag)
  // Right before the closing tag of a container around this block (`:::` already rewritten): closed first, there.
  else if (next === blank && closingTags.test(lines[next]!)) lines[next] = tag + lines[next]!.trimStart()
  else lines[open.last] += closeTag(open.kind)
}

/** The column of a line's first non-blank character (a tab counts to the next multiple of four). */
function indentOf(line: string): number {
  let column = 0
  for (const char of line) {
    if (char === ' ') column++
    else if (char === '\t') column += 4 - (column % 4)
    else break
  }
  return column
}

/** `line` with `columns` columns of indentation taken away (the line is known to be indented that far). */
function dedent(line: string, columns: number): string {
  let index = 0
  let column = 0
  while (column < columns && index < line.length) {
    const char = line[index]!
    if (char === ' ') column++
    else if (char === '\t') column += 4 - (column % 4)
    else break
    index++
  }
  return ' '.repeat(Math.max(0, column - columns)) + line.slice(index)
}

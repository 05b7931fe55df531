/**
 * MkDocs admonitions (python-markdown `admonition`, `pymdownx.details`):
 * `!!! note "Title"`, `!!! note ""` (no title), `!!! note` (the type is the
 * title), `???` and `???+` (expanding blocks), the content indented by four
 * spaces below. CommonMark would read that content as indented code, so the
 * marker line becomes the dialect's opening tag, the content is moved four
 * spaces left (nested admonitions too, one level per block), and the
 * closing tag is a line inserted after the content (`origin` maps the
 * lines back to the author's, so messages keep their lines). Content tabs
 * (`=== "Label"`, pymdownx.tabbed) are written one after the other, each
 * label a bold line over its content. Code blocks are left alone.
 */
import {admonitionColor, neutralColor} from '../alerts.js'
import {CodeLines, indentOf} from './code-lines.js'
import {capitalise, closeTag, isBlank, openTag, type BlockTitle, type SiteSource} from './lines.js'

// python-markdown's pattern: `!!!`, a type and modifiers (`inline end`), an optional quoted title.
const marker = /^([ \t]*)(!!!|\?\?\?\+?)[ \t]?([\w-]+)((?:[ \t]+[\w-]+)*)(?:[ \t]+"(.*?)")?[ \t\r]*$/
// pymdownx.tabbed: `=== "Label"` (`===!` starts a new tab set, `===+` selects it), its content indented the same way.
const tabMarker = /^([ \t]*)===[!+]?[ \t]+"(.*)"[ \t\r]*$/

interface Open {
  /** Column of the marker in the author's lines: the content is indented four more. */
  indent: number
  /** Column of the marker once the blocks around it moved it left: where its closing tag goes. */
  column: number
  /** A tab has no block of its own: its label is a bold line over its content. */
  kind: BlockTitle['kind'] | 'tab'
  /** The 0-based line of the content's last non-blank line. */
  last: number
}

/** Rewrites the MkDocs admonitions of `site` (see the module comment). */
export function rewriteMkDocsAdmonitions(site: SiteSource): void {
  const {lines} = site
  // Markers in code are examples, fenced or indented.
  const code = new CodeLines()
  const stack: Open[] = []
  for (let index = 0; index < lines.length; index++) {
    if (isBlank(lines[index]!)) {
      code.isCode('')
      continue
    }
    const indent = indentOf(lines[index]!)
    while (stack.length > 0 && indent < stack[stack.length - 1]!.indent + 4) {
      // A closing line that went in goes before this one.
      if (closeBlock(site, stack, stack.pop()!)) index++
      code.leave()
    }
    if (stack.length > 0) {
      lines[index] = dedent(lines[index]!, 4 * stack.length)
      for (const open of stack) open.last = index
    }
    if (code.isCode(lines[index]!)) continue
    const tab = tabMarker.exec(lines[index]!)
    if (tab) {
      lines[index] = `${tab[1]}**${tab[2]}**`
      stack.push({indent, column: tab[1]!.length, kind: 'tab', last: index})
      code.enter(tab[1]!.length)
      continue
    }
    const match = marker.exec(lines[index]!)
    if (!match) continue
    const [, lead, sign, type, , title] = match
    const kind = sign === '!!!' ? 'hintBlock' : 'details'
    const line = site.origin[index]!
    let color = admonitionColor(type!)
    if (!color) {
      color = neutralColor
      site.messages.push({
        line,
        column: lead!.length + 1,
        ruleId: 'kb-admonition-unknown',
        reason: `Unknown admonition type \`${type}\`; written as a ${neutralColor} hint block. Use note, tip, info, warning, danger or another MkDocs type for a coloured one.`
      })
    }
    lines[index] = lead + openTag(kind, color)
    // No title: the type, capitalised; `""`: none (an expanding block still needs a summary).
    const shown = title === undefined ? capitalise(type!) : title
    site.titles.set(line, shown || kind === 'details' ? {kind, title: shown || capitalise(type!)} : {kind})
    stack.push({indent, column: lead!.length, kind, last: index})
    code.enter(lead!.length)
  }
  while (stack.length > 0) closeBlock(site, stack, stack.pop()!)
}

/**
 * Inserts the closing tag of `open` (a block, not a tab: answers whether it did) on a line of its own right after its
 * content's last line, at the column of its opening tag (so it closes in
 * the container the block opened in: a list item, the top level). The new
 * line counts as that last line of the author's (`origin`). The blocks
 * still open around it (`stack`) now end after it.
 */
function closeBlock(site: SiteSource, stack: readonly Open[], open: Open): boolean {
  if (open.kind === 'tab') return false
  const at = open.last + 1
  site.lines.splice(at, 0, ' '.repeat(open.column) + closeTag(open.kind))
  site.origin.splice(at, 0, site.origin[open.last]!)
  for (const outer of stack) if (outer.last >= open.last) outer.last = at
  return true
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

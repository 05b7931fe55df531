/**
 * Containers fenced by a line of marks, opened and closed by fences of the
 * same mark, nested with longer fences:
 * - Docusaurus and VitePress: `:::tip`, `::: tip`, `:::tip Title`,
 *   `:::tip[Title]`, `:::details Title`, closed by `:::`;
 * - pymdownx.blocks (MkDocs): `/// note | Title`, `/// details | Summary`,
 *   `/// admonition | Title` with `type: warning` among the indented
 *   option lines under the fence, closed by `///`.
 * Each fence line is rewritten in place to the dialect's tag (a hint block
 * of the name's colour, or an expanding block for `details`), so the parse
 * builds the block around the Markdown inside, and every line keeps its
 * number. Containers that lay their content out (VitePress `code-group`,
 * pymdownx `tab`) lose only their fences. Code blocks are left alone.
 */
import {admonitionColor, neutralColor} from '../alerts.js'
import {CodeLines} from './code-lines.js'
import {closeTag, isBlank, openTag, splitPrefix, type BlockTitle, type SiteSource} from './lines.js'
import {trimBlanksEnd} from '../../../trust/linear-text.js'

/** One syntax of fenced containers. */
interface FenceSyntax {
  mark: string
  /** Groups: the fence, the name, a title in brackets, the rest of the line (a title after ` ` or `|`). */
  opening: RegExp
  closing: RegExp
  /** Containers whose fences alone go. */
  transparent: ReadonlySet<string>
  /** Whether indented `key: value` option lines follow the opening fence. */
  options: boolean
}

const syntaxes: FenceSyntax[] = [
  {
    mark: ':',
    // `{attributes}` are ignored; the title is trimmed in code (a lazy group before trailing white space backtracks).
    opening: /^(:{3,})[ \t]*([A-Za-z][\w-]*)(?:\[([^\]\n]*)\])?(?:\{[^}\n]*\})?(.*)$/,
    closing: /^(:{3,})[ \t\r]*$/,
    transparent: new Set(['code-group', 'v-pre', 'raw']),
    options: false
  },
  {
    mark: '/',
    opening: /^(\/{3,})[ \t]*([A-Za-z][\w-]*)()[ \t]*(?:\|(.*))?$/,
    closing: /^(\/{3,})[ \t\r]*$/,
    transparent: new Set(['tab', 'html', 'caption', 'figure-caption', 'table-caption', 'define', 'attr']),
    options: true
  }
]

const optionLine = /^[ \t]{2,}([\w-]+):[ \t]*(.*?)[ \t\r]*$/

interface Open {
  fence: number
  prefix: string
  line: number
  kind: BlockTitle['kind'] | 'none'
}

/** Rewrites the fenced containers of `site`, of every syntax (see the module comment). */
export function rewriteFencedContainers(site: SiteSource): void {
  for (const syntax of syntaxes) {
    const fence = syntax.mark.repeat(3)
    if (site.lines.some((line) => line.includes(fence))) rewriteContainers(site, syntax)
  }
}

/** Rewrites the containers of one syntax; unclosed ones are closed at the end, with a warning. */
function rewriteContainers(site: SiteSource, syntax: FenceSyntax): void {
  const {lines} = site
  const code = new CodeLines()
  const stack: Open[] = []
  const fence = syntax.mark.repeat(3)
  for (let index = 0; index < lines.length; index++) {
    const [prefix, rest] = splitPrefix(lines[index]!)
    if (code.isCode(lines[index]!)) continue
    if (!rest.startsWith(fence)) {
      splitTrailingClose(site, stack, index, syntax.mark)
      continue
    }
    const close = syntax.closing.exec(rest)
    if (close) {
      closeContainer(site, stack, index, close[1]!.length, syntax.mark)
      continue
    }
    const open = syntax.opening.exec(rest)
    if (!open) continue
    const name = open[2]!.toLowerCase()
    const title = open[3] || open[4]?.trim() || undefined
    const line = site.origin[index]!
    if (open[3] && open[4]?.trim()) splitInlineText(site, index, prefix, open[4].trim())
    const options = syntax.options ? takeOptions(lines, index + 1) : {}
    if (syntax.transparent.has(name)) {
      stack.push({fence: open[1]!.length, prefix, line, kind: 'none'})
      // A tab's label stays, as a bold line over its content (as `=== "Label"` tabs are written).
      lines[index] = name === 'tab' && title ? `${prefix}**${title}**` : prefix
      continue
    }
    const kind = name === 'details' ? 'details' : 'hintBlock'
    // `/// admonition` takes its colour from its `type` option; `/// details` may have one too.
    const type = options.type ?? (name === 'admonition' ? 'note' : name)
    let color = admonitionColor(type)
    if (kind === 'hintBlock' && !color) {
      color = neutralColor
      site.messages.push({
        line,
        column: prefix.length + 1,
        ruleId: 'kb-admonition-unknown',
        reason: `Unknown admonition type \`${type}\`; written as a ${neutralColor} hint block. Use note, tip, info, warning, danger, caution or important for a coloured one.`
      })
    }
    stack.push({fence: open[1]!.length, prefix, line, kind})
    lines[index] = prefix + openTag(kind, color ?? neutralColor)
    site.titles.set(line, kind === 'details' ? {kind, title: title ?? 'Details'} : {kind, ...(title ? {title} : {})})
  }
  for (let open = stack.pop(); open; open = stack.pop()) {
    site.messages.push({
      line: open.line,
      column: open.prefix.length + 1,
      ruleId: 'kb-admonition-unclosed',
      reason: `The container opened here is never closed; it runs to the end of the file. Add a line \`${syntax.mark.repeat(open.fence)}\` where it ends.`
    })
    if (open.kind === 'none') continue
    lines.push(trimBlanksEnd(open.prefix) + closeTag(open.kind))
    site.origin.push(site.origin[site.origin.length - 1] ?? 1)
  }
}

/**
 * `:::caution[Title] Some text`: the text after a bracketed title is the
 * container's first line, moved to a line of its own (the sites show such a
 * line as text: the author's intent is the block, which admonitions of
 * every syntax become).
 */
function splitInlineText(site: SiteSource, index: number, prefix: string, text: string): void {
  site.lines.splice(index + 1, 0, prefix + text)
  site.origin.splice(index + 1, 0, site.origin[index]!)
  site.messages.push({
    line: site.origin[index]!,
    column: prefix.length + 1,
    ruleId: 'kb-admonition-inline',
    reason:
      'Text follows the title on the line that opens this container; the site shows the whole line as text. kbsync writes the block with that text inside. Move the text to the next line.'
  })
}

/**
 * `...the last words. :::` while a container is open: a fence at the end of
 * a line of text closes it, after the text (as `splitInlineText`, the
 * author's intent over the sites' literal reading).
 */
function splitTrailingClose(site: SiteSource, stack: Open[], index: number, mark: string): void {
  const open = stack[stack.length - 1]
  const line = site.lines[index]!
  if (!open || !line.trimEnd().endsWith(mark.repeat(3))) return
  const fence = new RegExp(`^(.*\\S)[ \\t]+(\\${mark}{3,})[ \\t\\r]*$`).exec(line)
  if (!fence || fence[2]!.length !== open.fence) return
  site.lines.splice(index, 1, fence[1]!, open.prefix + mark.repeat(open.fence))
  site.origin.splice(index + 1, 0, site.origin[index]!)
}

/** The indented `key: value` option lines from line `start` on, blanked (they configure the block; no reader sees them). */
function takeOptions(lines: string[], start: number): Record<string, string> {
  const options: Record<string, string> = {}
  for (let index = start; index < lines.length; index++) {
    const option = optionLine.exec(lines[index]!)
    if (!option) break
    options[option[1]!.toLowerCase()] = option[2]!.replace(/^["']|["']$/g, '')
    lines[index] = ''
  }
  return options
}

/** Closes the innermost container a fence of `length` marks closes; a fence closing none is dropped with a warning. */
function closeContainer(site: SiteSource, stack: Open[], index: number, length: number, mark: string): void {
  const {lines} = site
  const [prefix] = splitPrefix(lines[index]!)
  const open = stack[stack.length - 1]
  if (!open || open.fence > length) {
    site.messages.push({
      line: site.origin[index]!,
      column: prefix.length + 1,
      ruleId: 'kb-admonition-stray',
      reason: `This \`${mark.repeat(length)}\` closes no container; it is left out. Remove it, or open the container it is meant to close.`
    })
    lines[index] = isBlank(prefix) ? '' : prefix
    return
  }
  stack.pop()
  // Written in the container of the opening line, where the dialect pairs the tags.
  lines[index] = open.kind === 'none' ? open.prefix : open.prefix + closeTag(open.kind)
}

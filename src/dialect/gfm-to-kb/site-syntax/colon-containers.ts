/**
 * Docusaurus and VitePress containers: `:::tip`, `::: tip`, `:::tip Title`,
 * `:::tip[Title]`, `:::details Title`, nested with longer fences
 * (`::::note` ... `::::`), closed by a line of at least as many colons.
 * Each fence line is rewritten in place to the dialect's tag (a hint block
 * of the name's colour, or an expanding block for `details`), so the parse
 * builds the block around the Markdown inside, and every line keeps its
 * number. Code blocks are left alone.
 */
import {admonitionColor, neutralColor} from '../alerts.js'
import {closeTag, FenceTracker, isBlank, openTag, splitPrefix, type BlockTitle, type SiteSource} from './lines.js'

// `:::name`, `::: name`, then `[Title]` and/or ` Title`; `{attributes}` are ignored.
// (The title is trimmed in code: a lazy group before trailing white space would backtrack quadratically.)
const opening = /^(:{3,})[ \t]*([A-Za-z][\w-]*)(?:\[([^\]\n]*)\])?(?:\{[^}\n]*\})?(.*)$/
const closing = /^(:{3,})[ \t\r]*$/
// VitePress containers that lay out their content instead of framing it: only their fences go.
const transparent = new Set(['code-group', 'v-pre', 'raw'])

interface Open {
  colons: number
  prefix: string
  line: number
  kind: BlockTitle['kind'] | 'none'
}

/** Rewrites the colon containers of `site` (see the module comment); unclosed ones are closed at the end, with a warning. */
export function rewriteColonContainers(site: SiteSource): void {
  const {lines} = site
  const fences = new FenceTracker()
  const stack: Open[] = []
  for (let index = 0; index < lines.length; index++) {
    const [prefix, rest] = splitPrefix(lines[index]!)
    if (fences.isCode(rest) || !rest.startsWith(':::')) continue
    const close = closing.exec(rest)
    if (close) {
      closeContainer(site, stack, index, close[1]!.length)
      continue
    }
    const open = opening.exec(rest)
    if (!open) continue
    const name = open[2]!.toLowerCase()
    const title = open[3] || open[4]!.trim() || undefined
    const line = site.origin[index]!
    if (transparent.has(name)) {
      stack.push({colons: open[1]!.length, prefix, line, kind: 'none'})
      lines[index] = prefix
      continue
    }
    const kind = name === 'details' ? 'details' : 'hintBlock'
    let color = admonitionColor(name)
    if (kind === 'hintBlock' && !color) {
      color = neutralColor
      site.messages.push({
        line,
        column: prefix.length + 1,
        ruleId: 'kb-admonition-unknown',
        reason: `Unknown admonition type \`${open[2]}\`; written as a ${neutralColor} hint block. Use note, tip, info, warning, danger, caution or important for a coloured one.`
      })
    }
    stack.push({colons: open[1]!.length, prefix, line, kind})
    lines[index] = prefix + openTag(kind, color ?? neutralColor)
    site.titles.set(line, kind === 'details' ? {kind, title: title ?? 'Details'} : {kind, ...(title ? {title} : {})})
  }
  for (let open = stack.pop(); open; open = stack.pop()) {
    site.messages.push({
      line: open.line,
      column: open.prefix.length + 1,
      ruleId: 'kb-admonition-unclosed',
      reason: `The container opened here is never closed; it runs to the end of the file. Add a line \`${':'.repeat(open.colons)}\` where it ends.`
    })
    if (open.kind === 'none') continue
    lines.push(open.prefix.replace(/[ \t]+$/, '') + closeTag(open.kind))
    site.origin.push(site.origin[site.origin.length - 1] ?? 1)
  }
}

/** Closes the innermost container a fence of `colons` colons closes; a fence closing none is dropped with a warning. */
function closeContainer(site: SiteSource, stack: Open[], index: number, colons: number): void {
  const {lines} = site
  const [prefix] = splitPrefix(lines[index]!)
  const open = stack[stack.length - 1]
  if (!open || open.colons > colons) {
    site.messages.push({
      line: site.origin[index]!,
      column: prefix.length + 1,
      ruleId: 'kb-admonition-stray',
      reason: `This \`${':'.repeat(colons)}\` closes no container; it is left out. Remove it, or open the container it is meant to close.`
    })
    lines[index] = isBlank(prefix) ? '' : prefix
    return
  }
  stack.pop()
  // Written in the container of the opening line, where the dialect pairs the tags.
  lines[index] = open.kind === 'none' ? open.prefix : open.prefix + closeTag(open.kind)
}

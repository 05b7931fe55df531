/**
 * GitHub alerts (`> [!NOTE]` ...) become hint blocks, so one file reads
 * well on GitHub and on the platform; so do Obsidian callouts, and the
 * colours here serve the other docs tools' admonitions too.
 */
import type {Paragraph, Parent, PhrasingContent, Root, Text} from 'mdast'
import type {VFile} from 'vfile'
import type {ColorToken, Details, HintBlock} from '../../../plugins/types.js'
import {warn} from '../messages.js'
import {capAfterPass} from './site-syntax/depth-guard.js'
import {capitalise} from './site-syntax/lines.js'
import {boldLine} from './site-syntax/titles.js'
import {walk} from './walk.js'
import {trimBlanksEnd} from '../../trust/linear-text.js'

/** Alert type -> hint-block colour (and back, for `kbToGfm`). */
export const alertColors: Record<string, ColorToken> = {
  NOTE: 'blue',
  TIP: 'green',
  IMPORTANT: 'violet',
  WARNING: 'orangeYellow',
  CAUTION: 'red'
}

/**
 * Admonition and callout names of the docs tools (Docusaurus, VitePress,
 * MkDocs and Material for MkDocs, python-markdown, Obsidian) -> colour, the
 * GitHub alerts' five among them with their colours. Aliases share their
 * type's colour (`hint` is a tip, `error` a danger).
 */
export const admonitionColors: Readonly<Record<string, ColorToken>> = {
  ...alertColors,
  INFO: 'greenBlue',
  TODO: 'greenBlue',
  ABSTRACT: 'greenBlue',
  SUMMARY: 'greenBlue',
  TLDR: 'greenBlue',
  SEEALSO: 'greenBlue',
  HINT: 'green',
  SUCCESS: 'green',
  CHECK: 'green',
  DONE: 'green',
  QUESTION: 'yellow',
  HELP: 'yellow',
  FAQ: 'yellow',
  ATTENTION: 'orangeYellow',
  DANGER: 'red',
  ERROR: 'red',
  FAILURE: 'red',
  FAIL: 'red',
  MISSING: 'red',
  BUG: 'red',
  EXAMPLE: 'purple',
  QUOTE: 'gray',
  CITE: 'gray',
  SECONDARY: 'gray'
}

/** The colour of hint blocks whose type no docs tool defines. */
export const neutralColor: ColorToken = 'gray'

/** The colour of an admonition or callout named `name` (any case), or undefined when no docs tool defines it. */
export function admonitionColor(name: string): ColorToken | undefined {
  const key = name.toUpperCase()
  return Object.hasOwn(admonitionColors, key) ? admonitionColors[key] : undefined
}

// `[!type]`, then `+` or `-` for a foldable (Obsidian) callout; a title may follow on the line.
const marker = /^\[!([\w-]+)\]([+-]?)(?=[ \t\n]|$)/

/**
 * Replaces every alert blockquote by a hint block of its colour. `source`
 * (the Markdown the tree was parsed from) tells an escaped `\[!NOTE]`, which
 * GitHub shows as text, from a marker: both parse to the same text.
 * Obsidian callouts go the same way: `> [!tip] Title` (the title becomes
 * the block's first bold line), `> [!faq]- Title` / `+` (foldable: an
 * expanding block with the title as summary), any callout type (one no tool
 * defines is a note, as Obsidian shows it, with a warning on `file`).
 */
export function alertsToHintBlocks(tree: Root, source?: string, file?: VFile): void {
  let titled = false
  walk(tree, (node, index, parent) => {
    if (node.type !== 'blockquote') return
    const first = node.children[0]
    if (first?.type !== 'paragraph') return
    const lead = first.children[0]
    if (lead?.type !== 'text') return
    const match = marker.exec(lead.value)
    if (!match) return
    const start = lead.position?.start.offset
    if (source !== undefined && start !== undefined && source.charAt(start) !== '[') return
    const [, name, fold] = match
    const {title, rest} = splitMarkerLine(first, {...lead, value: lead.value.slice(match[0].length)})
    const content = (rest ? [rest, ...node.children.slice(1)] : node.children.slice(1)) as HintBlock['children']
    let color = admonitionColor(name)
    if (!color) {
      color = admonitionColors.NOTE!
      if (file)
        warn(
          file,
          node,
          'kb-admonition-unknown',
          `Unknown callout type \`${name}\`; written as a note (blue), as Obsidian shows it. Use note, tip, info, warning, danger or another Obsidian type for its own colour.`
        )
    }
    const replacement: HintBlock | Details = fold
      ? {
          type: 'details',
          children: [
            {type: 'detailsSummary', children: title.length > 0 ? title : [{type: 'text', value: capitalise(name)}]},
            ...content
          ],
          position: node.position
        }
      : {
          type: 'hintBlock',
          color,
          children: title.length > 0 ? [boldLine(title), ...content] : content,
          position: node.position
        }
    ;(parent as Parent).children[index] = replacement
    titled ||= title.length > 0
  })
  // A title in bold is one level deeper than the quote's text was.
  if (titled) capAfterPass(tree, file)
}

/**
 * The marker line of an alert's first paragraph (`lead`: its first text,
 * the marker taken away) split into the title (the rest of that line,
 * trimmed) and the paragraph after it (undefined when nothing is left).
 */
function splitMarkerLine(paragraph: Paragraph, lead: Text): {title: PhrasingContent[]; rest?: Paragraph} {
  const title: PhrasingContent[] = []
  const after: PhrasingContent[] = []
  let ended = false
  for (const child of [lead, ...paragraph.children.slice(1)]) {
    if (ended) after.push(child)
    else if (child.type === 'break') ended = true
    else if (child.type === 'text' && child.value.includes('\n')) {
      const cut = child.value.indexOf('\n')
      title.push({...child, value: child.value.slice(0, cut)})
      if (cut + 1 < child.value.length) after.push({...child, value: child.value.slice(cut + 1)})
      ended = true
    } else title.push(child)
  }
  const trimmed = trimTitle(title)
  return after.length > 0 ? {title: trimmed, rest: {...paragraph, children: after}} : {title: trimmed}
}

/** A title without the white space around it (and without the texts left empty). */
function trimTitle(title: PhrasingContent[]): PhrasingContent[] {
  const first = title[0]
  if (first?.type === 'text') title[0] = {...first, value: first.value.replace(/^[ \t]+/, '')}
  const last = title[title.length - 1]
  if (last?.type === 'text') title[title.length - 1] = {...last, value: trimBlanksEnd(last.value)}
  return title.filter((node) => node.type !== 'text' || node.value !== '')
}

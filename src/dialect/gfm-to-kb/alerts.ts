/**
 * GitHub alerts (`> [!NOTE]` ...) become hint blocks, so one file reads
 * well on GitHub and on the platform.
 */
import type {Paragraph, Parent, Root, Text} from 'mdast'
import type {ColorToken, HintBlock} from '../../../plugins/types.js'
import {walk} from './walk.js'

/** Alert type -> hint-block colour (and back, for `kbToGfm`). */
export const alertColors: Record<string, ColorToken> = {
  NOTE: 'blue',
  TIP: 'green',
  IMPORTANT: 'violet',
  WARNING: 'orangeYellow',
  CAUTION: 'red'
}

const marker = /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*(?:\n|$)/i

/**
 * Replaces every alert blockquote by a hint block of its colour. `source`
 * (the Markdown the tree was parsed from) tells an escaped `\[!NOTE]`, which
 * GitHub shows as text, from a marker: both parse to the same text.
 */
export function alertsToHintBlocks(tree: Root, source?: string): void {
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
    const rest = stripMarker(first, lead, match[0].length)
    const hint: HintBlock = {
      type: 'hintBlock',
      color: alertColors[match[1]!.toUpperCase()]!,
      children: (rest ? [rest, ...node.children.slice(1)] : node.children.slice(1)) as HintBlock['children'],
      position: node.position
    }
    ;(parent as Parent).children[index] = hint
  })
}

/** The first paragraph without the marker line, or undefined when nothing is left. */
function stripMarker(paragraph: Paragraph, lead: Text, length: number): Paragraph | undefined {
  const value = lead.value.slice(length)
  const children = value === '' ? paragraph.children.slice(1) : [{...lead, value}, ...paragraph.children.slice(1)]
  // A soft break right after the marker is the marker line's own end.
  if (children[0]?.type === 'break') children.shift()
  return children.length > 0 ? {...paragraph, children} : undefined
}

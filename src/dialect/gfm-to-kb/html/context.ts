/** What the element handlers of one fragment share: the file messages go to. */
import type {Nodes as HastNodes} from 'hast'
import type {Nodes} from 'mdast'
import type {VFile} from 'vfile'
import {warn} from '../../messages.js'

/** The conversion of one fragment. */
export interface Conversion {
  file: VFile
  /** The nodes standing as slots, by their `data-i`. */
  slots: readonly Nodes[]
}

/** A warning about hast `node` (its position already in the source). */
export function warnAt(conversion: Conversion, node: HastNodes, ruleId: string, reason: string): void {
  warn(conversion.file, node, ruleId, reason)
}

/**
 * Dialect phrasing nodes (`underline`, `mark`, `anchorLink`,
 * `articleLink`) are unknown to mdast-util-phrasing, so hast-util-to-mdast
 * would take them for flow and break paragraphs around them. While it
 * runs they carry `data.hName: 'span'`, which it reads as phrasing; the
 * mark is taken off afterwards (`unmarkPhrasing`).
 */
export function markPhrasing<T extends Nodes>(node: T): T {
  node.data = {...node.data, hName: 'span'}
  return node
}

/** Dialect phrasing node types, which `markPhrasing` marks. */
export const dialectPhrasing = new Set(['underline', 'mark', 'anchorLink', 'articleLink'])

/** Takes the mark of `markPhrasing` off `node`. */
export function unmarkPhrasing(node: Nodes): void {
  if (!node.data || !('hName' in node.data)) return
  delete node.data.hName
  if (Object.keys(node.data).length === 0) delete node.data
}

const phrasingTypes = new Set([
  'text',
  'emphasis',
  'strong',
  'delete',
  'inlineCode',
  'link',
  'linkReference',
  'image',
  'imageReference',
  'break',
  'html',
  'footnoteReference',
  ...dialectPhrasing
])

/** Whether `node` is phrasing content (the dialect's phrasing nodes included). */
export function isPhrasing(node: Nodes): boolean {
  return phrasingTypes.has(node.type)
}

/** Whether any of `nodes` is flow content (it then needs paragraphs around its phrasing runs). */
export function holdsFlow(nodes: readonly Nodes[]): boolean {
  return nodes.some((node) => !isPhrasing(node))
}

/** Node types whose children are phrasing: a flow node inside one has to leave it. */
export const phrasingParents: ReadonlySet<string> = new Set([
  'paragraph',
  'heading',
  'emphasis',
  'strong',
  'delete',
  'link',
  'tableCell',
  'underline',
  'mark',
  'articleLink',
  'detailsSummary'
])

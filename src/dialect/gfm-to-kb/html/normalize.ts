/**
 * HTML lets block content sit where Markdown has only text: a `<div>` in a
 * `<span>`, a list in a `<td>`, a heading in a `<summary>`. The converted
 * tree is made valid for the dialect: a paragraph holding blocks is split
 * around them, and any other text container (table cells included) gets
 * its blocks as text, one line each in a table cell (a pipe table cannot
 * hold blocks; the table is reported once).
 */
import type {State} from 'hast-util-to-mdast'
import type {BlockContent, Nodes, Parent, PhrasingContent, RootContent, Table} from 'mdast'
import {textOf} from '../../../../plugins/transform/tags.js'
import {warn} from '../../messages.js'
import {holdsFlow, isPhrasing, phrasingParents, type Conversion} from './context.js'

/** `nodes` as phrasing: blocks become their text, joined by `separator` (a line break in table cells, else a space). */
export function flatten(nodes: readonly Nodes[], separator: 'break' | 'space'): PhrasingContent[] {
  const out: PhrasingContent[] = []
  const gap = () => {
    if (out.length > 0) out.push(separator === 'break' ? {type: 'break'} : {type: 'text', value: ' '})
  }
  for (const node of nodes) {
    if (isPhrasing(node)) {
      out.push(node as PhrasingContent)
      continue
    }
    switch (node.type) {
      case 'paragraph':
      case 'heading':
        gap()
        out.push(...flatten(node.children, separator))
        break
      case 'list':
        node.children.forEach((item, index) => {
          gap()
          out.push(
            {type: 'text', value: node.ordered ? `${(node.start ?? 1) + index}. ` : '• '},
            ...flatten(item.children, separator)
          )
        })
        break
      case 'code':
        // Without a language it is most often HTML's own indentation after a blank line, read as indented code: text.
        for (const line of node.value.split('\n')) {
          gap()
          out.push(node.lang ? {type: 'inlineCode', value: line} : {type: 'text', value: line.trim()})
        }
        break
      case 'video':
      case 'drawio':
        gap()
        out.push({type: 'link', url: node.url, children: [{type: 'text', value: node.url}]})
        break
      case 'thematicBreak':
        break
      default:
        gap()
        out.push(
          ...('children' in node && !['table', 'tableRow'].includes(node.type)
            ? flatten(node.children as Nodes[], separator)
            : [{type: 'text' as const, value: textOf([node])}])
        )
    }
  }
  return out
}

/** Whether a node is blank at the edge of a paragraph: a line break, or white space. */
function isBlank(node: Nodes | undefined): boolean {
  return node?.type === 'break' || (node?.type === 'text' && node.value.trim() === '')
}

/**
 * `nodes` as blocks (`state.toFlow`), without the paragraphs a reader sees
 * nothing of: hast-util-to-mdast wraps a `<br>` between two `<p>`s (Jekyll's
 * notes) in a paragraph of its own, which is written as blank lines that
 * read back as nothing, so the body would not parse to its own tree and
 * every later web edit of its page rewrote the whole block.
 */
export function toBlocks(state: State, nodes: readonly Nodes[]): BlockContent[] {
  const blocks = state.toFlow(nodes as RootContent[]) as BlockContent[]
  return blocks.filter((block) => block.type !== 'paragraph' || !block.children.every((child) => isBlank(child)))
}

/** `nodes` without the line breaks and white space at their edges (HTML shows `<p><br>a<br></p>` as `a`; Markdown cannot write them). */
export function trimBreaks<T extends Nodes>(nodes: T[]): T[] {
  let start = 0
  let end = nodes.length
  while (start < end && isBlank(nodes[start])) start++
  while (end > start && isBlank(nodes[end - 1])) end--
  return start > 0 || end < nodes.length ? nodes.slice(start, end) : nodes
}

/** `nodes` at flow level: phrasing runs in paragraphs, whitespace-only runs dropped. */
export function toFlowContent(nodes: readonly Nodes[]): RootContent[] {
  const out: RootContent[] = []
  let run: PhrasingContent[] = []
  const flush = () => {
    const children = trimBreaks(run)
    if (children.length > 0) out.push({type: 'paragraph', children})
    run = []
  }
  for (const node of nodes) {
    if (isPhrasing(node)) run.push(node as PhrasingContent)
    else if (node.type === 'paragraph') {
      // hast-util-to-mdast wraps a lone `<br>` in a paragraph of nothing.
      flush()
      run = node.children
      flush()
    } else {
      flush()
      out.push(node as RootContent)
    }
  }
  flush()
  return out
}

/**
 * Make the converted `nodes` valid in place (see the module comment);
 * `kept` are nodes taken over as they were parsed, valid already.
 */
export function normalize(nodes: Nodes[], conversion: Conversion, kept: ReadonlySet<Nodes>): void {
  for (const node of nodes) {
    if (kept.has(node) || !('children' in node)) continue
    const parent = node as Parent
    normalize(parent.children as Nodes[], conversion, kept)
    if (node.type === 'table') fixCells(node, conversion)
    else if (phrasingParents.has(node.type) && node.type !== 'tableCell' && holdsFlow(parent.children as Nodes[])) {
      parent.children = flatten(parent.children as Nodes[], 'space')
    } else if (
      !phrasingParents.has(node.type) &&
      parent.children.some((child) => child.type === 'paragraph' && holdsFlow(child.children as Nodes[]))
    ) {
      parent.children = parent.children.flatMap((child) =>
        child.type === 'paragraph' && holdsFlow(child.children as Nodes[])
          ? toFlowContent(child.children as Nodes[])
          : [child]
      )
    }
  }
}

/** A table whose cells hold blocks keeps its grid: each block becomes a line of its cell; reported once. */
function fixCells(table: Table, conversion: Conversion): void {
  let flattened = false
  for (const row of table.children) {
    for (const cell of row.children) {
      if (!holdsFlow(cell.children as Nodes[])) continue
      // Paragraphs (`<td><p>…</p></td>`) are only text; other blocks change shape.
      if ((cell.children as Nodes[]).some((child) => !isPhrasing(child) && child.type !== 'paragraph')) flattened = true
      cell.children = flatten(cell.children as Nodes[], 'break')
    }
  }
  if (flattened) {
    warn(
      conversion.file,
      table,
      'kb-html-table',
      'An HTML table cell holds blocks (paragraphs, lists, code); a pipe table cannot, so each block is written as a line of its cell. Keep cells to text to avoid this.'
    )
  }
}

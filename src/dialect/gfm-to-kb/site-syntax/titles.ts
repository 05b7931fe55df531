/**
 * The titles of the blocks the line pre-passes opened: a hint block's
 * title becomes its first paragraph, in bold; an expanding block's its
 * summary. Titles are inline Markdown (`:::tip Using \`x\``), parsed here.
 */
import type {BlockContent, Paragraph, PhrasingContent, Root} from 'mdast'
import {fromMarkdown} from 'mdast-util-from-markdown'
import type {VFile} from 'vfile'
import type {DetailsSummary} from '../../../../plugins/types.js'
import {walk} from '../walk.js'
import {capAfterPass} from './depth-guard.js'
import type {BlockTitle} from './lines.js'

/** Inserts the titles of `titles` (by the author's line of the block's opening tag; `origin` maps the tree's lines to those) into the blocks of `tree` opened there. */
export function insertTitles(
  tree: Root,
  titles: ReadonlyMap<number, BlockTitle>,
  origin: readonly number[],
  file?: VFile
): void {
  if (titles.size === 0) return
  let inserted = false
  walk(tree, (node) => {
    if (node.type !== 'hintBlock' && node.type !== 'details') return
    const line = node.position?.start.line
    const entry = line === undefined ? undefined : titles.get(origin[line - 1] ?? line)
    if (!entry || entry.kind !== node.type || entry.title === undefined) return
    const position = {start: node.position!.start, end: node.position!.start}
    const children = inline(entry.title)
    inserted = true
    if (node.type === 'hintBlock') {
      node.children.unshift({...boldLine(children), position})
      return
    }
    const summary: DetailsSummary = {type: 'detailsSummary', children, position}
    const content = node.children as Array<DetailsSummary | BlockContent>
    if (content[0]?.type === 'detailsSummary') content[0] = summary
    else content.unshift(summary)
  })
  if (inserted) capAfterPass(tree, file)
}

/** A title as the bold first line of a block: one bold run (bold inside it is unwrapped, not doubled). */
export function boldLine(title: PhrasingContent[]): Paragraph {
  const flat = title.flatMap((node) => (node.type === 'strong' ? node.children : [node]))
  return {type: 'paragraph', children: [{type: 'strong', children: flat}]}
}

/** The phrasing content of a title: its Markdown when it parses to one paragraph, else its text. */
function inline(title: string): PhrasingContent[] {
  // Most titles are words: no parse for them (a parse costs about as much as a short article's).
  if (!/[\\`*_[\]<>&!~:@]/.test(title)) return [{type: 'text', value: title}]
  const parsed = fromMarkdown(title)
  const first = parsed.children[0]
  const children: PhrasingContent[] =
    parsed.children.length === 1 && first?.type === 'paragraph' ? first.children : [{type: 'text', value: title}]
  for (const child of children) dropPosition(child)
  return children
}

function dropPosition(node: PhrasingContent): void {
  delete node.position
  if ('children' in node) for (const child of node.children) dropPosition(child)
}

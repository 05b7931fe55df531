/**
 * Web addresses in text that came from HTML. GitHub does not link them
 * inside HTML, but written out as Markdown text they are autolink literals:
 * converted again, the body would change. So they become links now, found
 * exactly as GFM finds them (mdast-util-gfm's autolink-literal transform,
 * run on each such text alone).
 */
import type {Nodes, Parents, PhrasingContent, Root, Text} from 'mdast'
import type {Transform} from 'mdast-util-from-markdown'
import {gfmFromMarkdown} from 'mdast-util-gfm'

const literalStart = /https?:\/\/|www\.|@/i

/** GFM's autolink-literal transform (the only GFM tree extension with a transform). */
const findLiterals: Transform | undefined = gfmFromMarkdown().flatMap((extension) => extension.transforms ?? [])[0]

/** `text` as GFM would read it written out: its autolink literals as links. */
function linked(text: Text): PhrasingContent[] {
  if (!findLiterals || !literalStart.test(text.value)) return [text]
  const paragraph: PhrasingContent[] = [{type: 'text', value: text.value}]
  const root: Root = {type: 'root', children: [{type: 'paragraph', children: paragraph}]}
  findLiterals(root)
  const result = (root.children[0] as {children: PhrasingContent[]}).children
  if (text.position) for (const node of result) node.position = text.position
  return result
}

/** Links the autolink literals of the text children of `parent` (converted ones: not links, not code). */
export function linkLiterals(parent: Parents): void {
  if (parent.type === 'link' || parent.type === 'linkReference') return
  if (!parent.children.some((child) => child.type === 'text' && literalStart.test(child.value))) return
  const children = parent.children as Nodes[]
  parent.children = children.flatMap((child): Nodes[] =>
    child.type === 'text' ? linked(child) : [child]
  ) as typeof parent.children
}

/**
 * The text an image published without its file leaves: its alt text, where
 * what reads as a tag (`<UserPage>`) is inline code. Markdown keeps no
 * formatting in alt text, so ``![capture of `<UserPage>`](x.png)`` has the
 * alt `capture of <UserPage>`: as plain text a reader would see a stray tag
 * where the author wrote code.
 */
import type {PhrasingContent} from 'mdast'

const tagLike = /<\/?[A-Za-z][^<>\n]*>/g

/** The nodes of `alt` as text, with each tag-like run as inline code. */
export function altTextNodes(alt: string): PhrasingContent[] {
  const nodes: PhrasingContent[] = []
  let last = 0
  for (const match of alt.matchAll(tagLike)) {
    if (match.index > last) nodes.push({type: 'text', value: alt.slice(last, match.index)})
    nodes.push({type: 'inlineCode', value: match[0]})
    last = match.index + match[0].length
  }
  if (last < alt.length) nodes.push({type: 'text', value: alt.slice(last)})
  return nodes
}
